import { embeddingInputProblem } from './dto/embeddings.dto.js';
import { base64Of } from './embeddings.service.js';

describe('embeddings', () => {
  it("writes a vector as OpenAI's base64: little-endian float32 bytes", () => {
    const encoded = base64Of([0.5, -1, 0.25]);
    const bytes = Buffer.from(encoded, 'base64');
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4), bytes.readFloatLE(8)]).toEqual([0.5, -1, 0.25]);
    expect(bytes).toHaveLength(12);
  });

  it('takes one non-empty string or 1–2048 of them', () => {
    expect(embeddingInputProblem('x')).toBeUndefined();
    expect(embeddingInputProblem(['a', 'b'])).toBeUndefined();
    expect(embeddingInputProblem('')).toBe('input must not be empty');
    expect(embeddingInputProblem(['a', ''])).toBe('input.1 must not be empty');
    expect(embeddingInputProblem([1, 2])).toMatch(/^input must be a string or an array of 1 to 2048 strings/);
    expect(embeddingInputProblem([])).toMatch(/^input must be a string or an array/);
  });
});
