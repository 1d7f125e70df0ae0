import { chatMessageProblems, mapMessageTexts, nonTextParts, type ChatMessage } from './chat-messages.js';

describe('chatMessageProblems', () => {
  it("takes OpenAI's messages: roles, string content, content parts, an assistant's tool calls, tool answers", () => {
    expect(
      chatMessageProblems([
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: 'Answer in English.', name: 'ops' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://x/a.png' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', content: '{"ok":true}', tool_call_id: 't1' },
        { role: 'assistant', content: 'Done.' },
      ]),
    ).toEqual([]);
  });

  it.each([
    ['not an array', 'hi', ['messages must be an array of messages']],
    ['empty', [], ['messages must hold at least one message']],
    ['1001 messages', Array.from({ length: 1001 }, () => ({ role: 'user', content: 'x' })), ['messages must hold at most 1000 messages (it holds 1001)']],
    ['a string message', ['hi'], ['messages.0 must be an object with a role and content']],
    [
      'an unknown role',
      [{ role: 'bot', content: 'x' }],
      ['messages.0.role must be one of system, developer, user, assistant (or tool, with an upstream that has tools)'],
    ],
    [
      'a typo',
      [{ role: 'user', contnet: 'x' }],
      ['property messages.0.contnet should not exist', 'messages.0.content must be a string or an array of content parts'],
    ],
    ['a user message without content', [{ role: 'user', content: null }], ['messages.0.content must be a string or an array of content parts']],
    ['a part without type', [{ role: 'user', content: [{ text: 'x' }] }], ['messages.0.content.0 must be a content part with a type ("text", "image_url"…)']],
    ['a text part without text', [{ role: 'user', content: [{ type: 'text', text: 3 }] }], ['messages.0.content.0.text must be a string']],
    ['a tool answer without its call id', [{ role: 'tool', content: 'x' }], ['messages.0.tool_call_id must be a string']],
    ['a name too long', [{ role: 'user', content: 'x', name: 'n'.repeat(257) }], ['messages.0.name must be a string of at most 256 characters']],
  ])('names the problem of %s', (_label, messages, problems) => {
    expect(chatMessageProblems(messages)).toEqual(problems);
  });

  it('lists at most 10 problems', () => {
    expect(chatMessageProblems(Array.from({ length: 50 }, () => ({ role: 'nobody' })))).toHaveLength(10);
  });
});

describe('mapMessageTexts and nonTextParts', () => {
  const messages = [
    { role: 'user', content: 'Mail me at a@b.example' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Call 555' },
        { type: 'image_url', image_url: { url: 'https://x/a.png' } },
      ],
    },
    { role: 'assistant', content: null, tool_calls: [] },
  ] as unknown as ChatMessage[];

  it('changes every text, string contents and text parts, and nothing else', () => {
    const changed = mapMessageTexts(messages, (t) => t.toUpperCase());
    expect(changed).toEqual([
      { role: 'user', content: 'MAIL ME AT A@B.EXAMPLE' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'CALL 555' },
          { type: 'image_url', image_url: { url: 'https://x/a.png' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [] },
    ]);
    expect(messages[0].content).toBe('Mail me at a@b.example'); // not in place
  });

  it('counts the parts that are not text', () => {
    expect(nonTextParts(messages)).toBe(1);
  });
});
