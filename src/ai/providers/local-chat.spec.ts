import type { ChatRequest } from './ai-provider.js';
import { refusedByLocal, stopsOf, textOf, toChatHistory } from './local-chat.js';

const base: ChatRequest = { model: 'tiny', messages: [{ role: 'user', content: 'hi' }] };

describe('a local model', () => {
  it('honours the fields it can, and the defaults clients send', () => {
    expect(
      refusedByLocal(
        {
          ...base,
          max_tokens: 5,
          temperature: 0,
          top_p: 0.9,
          stop: ['\n'],
          seed: 1,
          user: 'u',
          n: 1,
          frequency_penalty: 0,
          presence_penalty: 0,
          logprobs: false,
          tools: [],
          store: false,
          tool_choice: 'none',
          response_format: { type: 'text' },
        },
        'tiny',
      ),
    ).toEqual([]);
  });

  it('names each field and part it cannot honour', () => {
    const request = {
      ...base,
      n: 2,
      tools: [{ type: 'function', function: { name: 'f' } }],
      response_format: { type: 'json_object' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'https://x/a.png' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', content: 'x', tool_call_id: 't' },
      ],
    } as ChatRequest;
    expect(refusedByLocal(request, 'tiny')).toEqual([
      'n is not supported by the model tiny (a local model)',
      'tools is not supported by the model tiny (a local model)',
      'response_format is not supported by the model tiny (a local model)',
      'messages.0.content.1 is a image_url part, which the model tiny (a local model) cannot read',
      'messages.1.tool_calls is not supported by the model tiny (a local model)',
      'messages.2.role tool is not supported by the model tiny (a local model)',
    ]);
  });

  it("reads OpenAI's messages as a chat history ending with the model's turn", () => {
    expect(
      toChatHistory([
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'English.' }] },
        { role: 'user', content: 'Hi' },
      ]),
    ).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'system', text: 'English.' },
      { type: 'user', text: 'Hi' },
      { type: 'model', response: [] },
    ]);
    // A last assistant message is the start of the answer, continued.
    expect(
      toChatHistory([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Once' },
      ]).at(-1),
    ).toEqual({ type: 'model', response: ['Once'] });
    expect(
      textOf([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('ab');
    expect([stopsOf('x'), stopsOf(['a', '']), stopsOf(null)]).toEqual([['x'], ['a'], []]);
  });
});
