import { parseLdd } from './sandbox.js';

describe('parseLdd', () => {
  it('takes the absolute paths of the libraries, and the loader', () => {
    const output = [
      '\tlinux-vdso.so.1 (0x00007ffd)',
      '\tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f9d0c67a000)',
      '\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f9d0653e000)',
      '\t/lib64/ld-linux-x86-64.so.2 (0x00007f9d0c693000)',
    ].join('\n');
    expect(parseLdd(output)).toEqual(['/lib/x86_64-linux-gnu/libdl.so.2', '/lib/x86_64-linux-gnu/libc.so.6', '/lib64/ld-linux-x86-64.so.2']);
  });
});
