import { registerDecorator, type ValidationArguments } from 'class-validator';
import type { ChatRequest } from '../providers/ai-provider.js';

export type ChatMessage = ChatRequest['messages'][number];

/** The most messages one request may carry. */
export const MAX_MESSAGES = 1000;
/** Problems listed for `messages`, at most. */
const MAX_PROBLEMS = 10;

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;
/** The fields of a message OpenAI knows, per role (anything else is a typo to name, not to pass on). */
const FIELDS: Record<(typeof ROLES)[number], string[]> = {
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'function_call', 'audio', 'refusal'],
  tool: ['role', 'content', 'tool_call_id'],
  function: ['role', 'content', 'name'],
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What is wrong with a chat request's `messages`, as "field must …" sentences naming the path
 * (`messages.2.content.0.text`); empty when nothing is. OpenAI's shape: a role of system, developer,
 * user, assistant (or tool, function with an upstream that has tools), content a string or an array
 * of typed parts (text parts with their `text`; images, audio and files are for upstreams that take them).
 */
export function chatMessageProblems(messages: unknown): string[] {
  if (!Array.isArray(messages)) return ['messages must be an array of messages'];
  if (messages.length === 0) return ['messages must hold at least one message'];
  if (messages.length > MAX_MESSAGES) return [`messages must hold at most ${MAX_MESSAGES} messages (it holds ${messages.length})`];
  const problems: string[] = [];
  for (const [i, message] of messages.entries()) {
    if (problems.length >= MAX_PROBLEMS) break;
    const at = `messages.${i}`;
    if (!isObject(message)) {
      problems.push(`${at} must be an object with a role and content`);
      continue;
    }
    const role = message.role as (typeof ROLES)[number];
    if (!ROLES.includes(role)) {
      problems.push(`${at}.role must be one of ${ROLES.slice(0, 4).join(', ')} (or tool, with an upstream that has tools)`);
      continue;
    }
    for (const field of Object.keys(message)) if (!FIELDS[role].includes(field)) problems.push(`property ${at}.${field} should not exist`);
    problems.push(...contentProblems(message, role, at));
    if (message.name !== undefined && (typeof message.name !== 'string' || message.name.length > 256))
      problems.push(`${at}.name must be a string of at most 256 characters`);
    if (role === 'tool' && typeof message.tool_call_id !== 'string') problems.push(`${at}.tool_call_id must be a string`);
    if (message.tool_calls !== undefined && message.tool_calls !== null && !Array.isArray(message.tool_calls))
      problems.push(`${at}.tool_calls must be an array`);
  }
  return problems.slice(0, MAX_PROBLEMS);
}

function contentProblems(message: Record<string, unknown>, role: string, at: string): string[] {
  const { content } = message;
  if (typeof content === 'string') return [];
  // An assistant turn that called tools may have no content.
  if (content === null || content === undefined) {
    return role === 'assistant' && (message.tool_calls || message.function_call || message.audio)
      ? []
      : [`${at}.content must be a string or an array of content parts`];
  }
  if (!Array.isArray(content)) return [`${at}.content must be a string or an array of content parts`];
  const problems: string[] = [];
  for (const [j, part] of content.entries()) {
    if (!isObject(part) || typeof part.type !== 'string') problems.push(`${at}.content.${j} must be a content part with a type ("text", "image_url"…)`);
    else if (part.type === 'text' && typeof part.text !== 'string') problems.push(`${at}.content.${j}.text must be a string`);
  }
  return problems;
}

/** Validates `messages` with chatMessageProblems (class-validator: one message naming every problem found). */
export function IsChatMessages(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isChatMessages',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => chatMessageProblems(value).length === 0,
        defaultMessage: (args: ValidationArguments) => chatMessageProblems(args.value).join('; '),
      },
    });
}

/** Every text a request sends to the model, each through `change` (PII masking): string contents and text parts. */
export function mapMessageTexts(messages: ChatMessage[], change: (text: string) => string): ChatMessage[] {
  return messages.map((message) => {
    if (typeof message.content === 'string') return { ...message, content: change(message.content) } as ChatMessage;
    if (!Array.isArray(message.content)) return message;
    const content = message.content.map((part) => (part.type === 'text' ? { ...part, text: change(part.text) } : part));
    return { ...message, content } as ChatMessage;
  });
}

/** Parts of a request that are not text (images, audio, files): each is held as IMAGE_PART_TOKENS, whatever its bytes. */
export function nonTextParts(messages: ChatMessage[]): number {
  let parts = 0;
  for (const message of messages) if (Array.isArray(message.content)) for (const part of message.content) if (part.type !== 'text') parts++;
  return parts;
}
