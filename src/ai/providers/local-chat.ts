import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatRequest } from './ai-provider.js';

/**
 * The fields of a chat request an in-process model can honour, and for the optional ones the
 * values that change nothing (so a client library sending its defaults is not refused).
 * Anything else present is refused with 400 naming it: a local model has no tools, no images,
 * no audio and one choice, and nothing is silently dropped.
 */
const HONOURED = new Set(['model', 'messages', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'stop', 'seed', 'user']);
const HARMLESS: Record<string, (value: unknown) => boolean> = {
  n: (v) => v === 1,
  logprobs: (v) => v === false,
  frequency_penalty: (v) => v === 0,
  presence_penalty: (v) => v === 0,
  parallel_tool_calls: () => true, // without tools it means nothing
  tool_choice: (v) => v === 'none',
  store: (v) => v === false,
  tools: (v) => Array.isArray(v) && v.length === 0,
  response_format: (v) => typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'text',
};

/** `field: why` for each field of the request the local provider cannot honour (empty: it can run). */
export function refusedByLocal(request: ChatRequest, model: string): string[] {
  const problems: string[] = [];
  for (const [field, value] of Object.entries(request)) {
    if (value === undefined || value === null || HONOURED.has(field)) continue;
    if (HARMLESS[field]?.(value)) continue;
    problems.push(`${field} is not supported by the model ${model} (a local model)`);
  }
  request.messages.forEach((message, i) => {
    if (message.role === 'tool' || message.role === 'function')
      problems.push(`messages.${i}.role ${message.role} is not supported by the model ${model} (a local model)`);
    for (const field of ['tool_calls', 'function_call', 'audio'] as const) {
      if (field in message && (message as unknown as Record<string, unknown>)[field] != null) {
        problems.push(`messages.${i}.${field} is not supported by the model ${model} (a local model)`);
      }
    }
    if (Array.isArray(message.content)) {
      message.content.forEach((part, j) => {
        if (part.type !== 'text') problems.push(`messages.${i}.content.${j} is a ${part.type} part, which the model ${model} (a local model) cannot read`);
      });
    }
  });
  return problems;
}

/** A message's text: its string content, or its text parts joined. */
export function textOf(content: ChatRequest['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * OpenAI's messages as node-llama-cpp's chat history, ending with the model's turn to answer:
 * system and developer messages are system turns, user and assistant messages theirs. A last
 * assistant message is continued (its text is the start of the answer).
 */
export function toChatHistory(messages: ChatRequest['messages']): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message) => {
    const text = textOf(message.content);
    if (message.role === 'assistant') return { type: 'model', response: text ? [text] : [] };
    if (message.role === 'user') return { type: 'user', text };
    return { type: 'system', text };
  });
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

/** `stop` as a list (OpenAI takes one string or up to four). */
export function stopsOf(stop: ChatRequest['stop']): string[] {
  if (typeof stop === 'string') return stop ? [stop] : [];
  return (stop ?? []).filter((s) => typeof s === 'string' && s !== '');
}
