/** An uploaded file: the account has its content, which deploys can reference by hash. */
export class FileDto {
  /**
   * The SHA-256 of the content (lowercase hex).
   * @example 3f9a1c2be0b8d5e4a1f7c6d9b2e3a4f5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1
   */
  sha256: string;

  /**
   * Its size in bytes.
   * @example 48213
   */
  size: number;
}
