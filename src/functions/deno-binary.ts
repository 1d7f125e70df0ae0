import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StartupError } from '../config/startup-errors.js';

/**
 * The Deno executable of the pinned `deno` package. Its postinstall (which only copies the binary) is not run
 * (`allowScripts`), so it is found where npm put it: the optional package of this platform, `@deno/<target>`.
 */
export function denoPackageName(platform: string = process.platform, arch: string = process.arch, glibc: boolean = hasGlibc()): string {
  if (arch !== 'x64' && arch !== 'arm64') throw new StartupError(`Functions need Deno, which is built for x64 and arm64 only (this machine: ${arch})`);
  if (platform === 'linux') {
    if (!glibc) throw new StartupError('Functions need Deno, whose Linux builds need glibc (this system has musl or no glibc)');
    return `@deno/linux-${arch}-glibc`;
  }
  if (platform === 'darwin' || platform === 'win32') return `@deno/${platform}-${arch}`;
  throw new StartupError(`Functions need Deno, which has no build for ${platform}`);
}

/** The absolute path of the `deno` executable, or a start-up error naming the package that is missing. */
export function denoExecutable(): string {
  const name = denoPackageName();
  let folder: string;
  try {
    folder = dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    throw new StartupError(
      `Functions need the npm package ${name} (the Deno binary for this platform, an optional dependency of "deno"); it is not installed: run npm ci without --omit=optional`,
    );
  }
  const path = join(folder, process.platform === 'win32' ? 'deno.exe' : 'deno');
  if (!existsSync(path)) throw new StartupError(`Functions need the Deno binary at ${path}, which ${name} should hold: reinstall it (npm ci)`);
  return path;
}

function hasGlibc(): boolean {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return Boolean(header?.glibcVersionRuntime);
}
