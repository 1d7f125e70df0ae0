import { LineSplitter } from './line-splitter.js';

describe('LineSplitter', () => {
  const split = (chunks: Array<string | Buffer>, max = 10) => {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line), max);
    for (const chunk of chunks) splitter.push(chunk);
    splitter.end();
    return lines;
  };

  it('joins chunks into lines and drops \\r', () => {
    expect(split(['ab', 'c\r\nde', 'f\n', 'g'])).toEqual(['abc', 'def', 'g']);
  });

  it('keeps a character split between chunks whole', () => {
    const bytes = Buffer.from('é\n');
    expect(split([bytes.subarray(0, 1), bytes.subarray(1)])).toEqual(['é']);
  });

  it('cuts a line past the limit and drops the rest of it, so output without newlines stays bounded', () => {
    expect(split(['0123456789abc', 'def', 'ghi\nnext\n'])).toEqual(['0123456789…', 'next']);
  });
});
