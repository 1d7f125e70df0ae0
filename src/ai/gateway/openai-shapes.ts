// Compile-time checks that the gateway's DTOs take exactly OpenAI's request fields (the `openai`
// package's types, so an upgrade that adds a field fails the type check here until the DTO has it).
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import type { EmbeddingCreateParams } from 'openai/resources/embeddings';
import type { ChatCompletionRequestDto } from './dto/chat-completion.dto.js';
import type { EmbeddingsRequestDto } from './dto/embeddings.dto.js';

type Same<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : { missing: Exclude<A, B>; extra: Exclude<B, A> };

export const chatFieldsMatchOpenAi: Same<keyof ChatCompletionCreateParamsBase, keyof ChatCompletionRequestDto> = true;
export const embeddingFieldsMatchOpenAi: Same<keyof EmbeddingCreateParams, keyof EmbeddingsRequestDto> = true;
