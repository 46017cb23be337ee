/**
 * The batch request and the pure steps of a batch: what send-bulk accepts (defaults, limits, item types), how an item
 * renders, and how recording an item, a cancel and stopOnError move status and progress, which always add up.
 */
import { describe, expect, it } from '@jest/globals';
import {
  type BatchItemResult,
  bulkItemDraft,
  cancelledBatch,
  delayAfterItem,
  type MessageBatch,
  recordedBatch,
  SendBulkBody,
  startedBatch,
} from '#shared/domain/message-batch.js';
import { validationIssues } from '#shared/errors/validation-issues.js';
import { aBatch, at } from '#tests/helpers/builders.js';

const sent = (chatId = '15550001000@c.us'): BatchItemResult => ({ chatId, status: 'sent', messageId: 'WA' });
const failed: BatchItemResult = {
  chatId: '15550001000@c.us',
  status: 'failed',
  error: { code: 'SEND_FAILED', message: 'no' },
};
const text = (chatId: string, body: string) => ({ chatId, type: 'text', content: { text: body } });

function sums(batch: MessageBatch): number {
  const { sent: s, failed: f, pending, cancelled } = batch.progress;
  return s + f + pending + cancelled;
}

describe('SendBulkBody', () => {
  it('fills the openwa option defaults and keeps the items as given', () => {
    const body = SendBulkBody.parse({ messages: [text('15550001000@c.us', 'hi')] });
    expect(body.options).toEqual({ delayBetweenMessages: 3000, randomizeDelay: true, stopOnError: false });
    expect(body.batchId).toBeUndefined();
    expect(SendBulkBody.parse({ messages: [text('15550001000@c.us', 'hi')], options: {} }).options).toEqual(
      body.options,
    );
  });

  it('takes media items as the single media sends take their files, and refuses other types by the list', () => {
    const chatId = '15550001000@c.us';
    const body = SendBulkBody.parse({
      messages: [
        {
          chatId,
          type: 'image',
          content: { data: 'iVBORw0K', mimetype: 'image/png', caption: 'Hi {{name}}' },
        },
        { chatId, type: 'video', content: { url: 'https://files.example/v.mp4' } },
        { chatId, type: 'audio', content: { url: 'https://files.example/a.ogg', ptt: true } },
        { chatId, type: 'document', content: { url: 'https://files.example/q.pdf', filename: 'q.pdf' } },
      ],
    });
    expect(body.messages.map((m) => m.type)).toEqual(['image', 'video', 'audio', 'document']);
    // As the API reports them: a union's issues are those of the shape the item came closest to.
    const refused = (item: Record<string, unknown>) =>
      validationIssues(SendBulkBody, { messages: [{ chatId, ...item }] })?.[0];
    expect(refused({ type: 'image', content: { caption: 'x' } })).toMatchObject({
      path: ['messages', 0, 'content', 'url'],
      message: 'give exactly one of url and data',
    });
    expect(refused({ type: 'image', content: { data: 'iVBORw0K' } })?.path).toEqual([
      'messages',
      0,
      'content',
      'mimetype',
    ]);
    expect(refused({ type: 'audio', content: { url: 'https://f.example/a', caption: 'x' } })?.code).toBe(
      'unrecognized_keys',
    );
    expect(refused({ type: 'image', content: { url: 'ftp://f.example/a.png' } })?.path).toEqual([
      'messages',
      0,
      'content',
      'url',
    ]);
    expect(refused({ type: 'sticker', content: {} })).toMatchObject({
      path: ['messages', 0, 'type'],
      message: 'type must be one of text, image, video, audio, document',
    });
  });

  it('refuses an empty or over-long list, delays outside 1000–60000, non-boolean flags and bad batch ids', () => {
    const one = [text('15550001000@c.us', 'hi')];
    const refused = [
      { messages: [] },
      { messages: Array.from({ length: 101 }, () => one[0]) },
      { messages: one, options: { delayBetweenMessages: 999 } },
      { messages: one, options: { delayBetweenMessages: 60_001 } },
      { messages: one, options: { randomizeDelay: 'yes' } },
      { messages: one, options: { extra: true } },
      { messages: one, batchId: '.' },
      { messages: one, batchId: '..' },
      { messages: one, batchId: 'a/b' },
      { messages: one, batchId: '' },
      { messages: one, batchId: 'x'.repeat(101) },
      { messages: [{ ...one[0], content: { text: '' } }] },
      { messages: [{ ...one[0], chatId: 'nobody' }] },
    ];
    for (const body of refused) expect(SendBulkBody.safeParse(body).success).toBe(false);
    expect(SendBulkBody.safeParse({ messages: Array.from({ length: 100 }, () => one[0]) }).success).toBe(
      true,
    );
    expect(SendBulkBody.parse({ messages: one, batchId: 'a.b_c~d-1' }).batchId).toBe('a.b_c~d-1');
  });

  it('refuses items whose text and variables together exceed the batch size cap', () => {
    const huge = Object.fromEntries(Array.from({ length: 250 }, (_v, i) => [`v${i}`, 'x'.repeat(4096)]));
    const messages = [{ ...text('15550001000@c.us', 'hi'), variables: huge }];
    expect(SendBulkBody.safeParse({ messages }).error?.issues[0]?.message).toMatch(
      /1000000 characters at most/,
    );
  });
});

describe('bulkItemDraft', () => {
  it('fills placeholders from the variables, keeps a text without variables as written, and keeps mentions', () => {
    const item = {
      chatId: '15550001000@c.us',
      type: 'text' as const,
      content: { text: 'Hi {{ name }} @15550002000', mentions: ['15550002000@c.us'] },
      variables: { name: 'Ada' },
    };
    expect(bulkItemDraft(item)).toEqual({
      type: 'text',
      text: 'Hi Ada @15550002000',
      mentions: ['15550002000@c.us'],
    });
    const { variables: _none, ...literal } = item;
    expect(bulkItemDraft(literal)).toMatchObject({ text: 'Hi {{ name }} @15550002000' });
  });

  it("fills a media item's caption and url, keeps its other fields, and refuses a filled url that is no URL", () => {
    const item = {
      chatId: '15550001000@c.us',
      type: 'document' as const,
      content: {
        url: 'https://files.example/invoices/{{number}}.pdf',
        caption: 'Invoice {{number}} for {{name}}',
        filename: 'invoice.pdf',
        mimetype: 'application/pdf',
      },
      variables: { number: 'A-17', name: 'Ada' },
    };
    expect(bulkItemDraft(item)).toEqual({
      type: 'document',
      source: { url: 'https://files.example/invoices/A-17.pdf' },
      caption: 'Invoice A-17 for Ada',
      fileName: 'invoice.pdf',
      mimetype: 'application/pdf',
    });
    const image = {
      chatId: item.chatId,
      type: 'image' as const,
      content: { data: 'iVBORw0K', mimetype: 'image/png' },
    };
    expect(bulkItemDraft(image)).toEqual({
      type: 'image',
      source: { data: 'iVBORw0K' },
      mimetype: 'image/png',
    });
    expect(() =>
      bulkItemDraft({ ...item, content: { url: '{{target}}' }, variables: { target: 'not a url' } }),
    ).toThrow(expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED' }));
    expect(() => bulkItemDraft({ ...item, variables: { name: 'Ada' } })).toThrow(
      expect.objectContaining({ code: 'TEMPLATE_VARIABLES_MISSING' }),
    );
  });

  it('throws the rendering errors: a placeholder without a value, a text over 4096 characters', () => {
    const item = { chatId: '15550001000@c.us', type: 'text' as const, content: { text: '{{a}} {{b}}' } };
    expect(() => bulkItemDraft({ ...item, variables: { a: 'x' } })).toThrow(
      expect.objectContaining({ code: 'TEMPLATE_VARIABLES_MISSING' }),
    );
    expect(() => bulkItemDraft({ ...item, variables: { a: 'x'.repeat(4096), b: '' } })).toThrow(
      expect.objectContaining({ code: 'TEMPLATE_RENDER_TOO_LONG' }),
    );
  });
});

describe('batch steps', () => {
  it('records items in order and completes with the last one', () => {
    let batch = startedBatch(aBatch({}, 3), at(1));
    expect(batch).toMatchObject({ status: 'processing', startedAt: at(1) });
    batch = recordedBatch(batch, sent(), at(2));
    batch = recordedBatch(batch, failed, at(3));
    expect(batch).toMatchObject({
      status: 'processing',
      currentIndex: 2,
      progress: { total: 3, sent: 1, failed: 1, pending: 1, cancelled: 0 },
      completedAt: null,
    });
    batch = recordedBatch(batch, sent(), at(4));
    expect(batch).toMatchObject({
      status: 'completed',
      currentIndex: 3,
      completedAt: at(4),
      updatedAt: at(4),
    });
    expect(batch.results.map((result) => result.status)).toEqual(['sent', 'failed', 'sent']);
    expect(sums(batch)).toBe(3);
  });

  it('keeps its first start time when it starts again after a restart', () => {
    const resumed = startedBatch({ ...aBatch(), status: 'processing', startedAt: at(1) }, at(9));
    expect(resumed.startedAt).toBe(at(1));
  });

  it('fails at the first failed item with stopOnError, counting the items after it cancelled', () => {
    const base = aBatch({}, 4);
    let batch = startedBatch({ ...base, options: { ...base.options, stopOnError: true } }, at(1));
    batch = recordedBatch(batch, sent(), at(2));
    batch = recordedBatch(batch, failed, at(3));
    expect(batch).toMatchObject({
      status: 'failed',
      currentIndex: 2,
      progress: { total: 4, sent: 1, failed: 1, pending: 0, cancelled: 2 },
      completedAt: at(3),
    });
  });

  it('cancels the items not sent yet; an item that was on its way moves from cancelled to its outcome', () => {
    let batch = recordedBatch(startedBatch(aBatch({}, 3), at(1)), sent(), at(2));
    batch = cancelledBatch(batch, at(3));
    expect(batch).toMatchObject({
      status: 'cancelled',
      progress: { total: 3, sent: 1, failed: 0, pending: 0, cancelled: 2 },
      completedAt: at(3),
    });
    batch = recordedBatch(batch, sent(), at(4));
    expect(batch).toMatchObject({
      status: 'cancelled',
      currentIndex: 2,
      progress: { sent: 2, pending: 0, cancelled: 1 },
      completedAt: at(3),
    });
    expect(sums(batch)).toBe(3);
  });

  it('waits the delay between items, or between one and one and a half times it when randomized', () => {
    const options = { delayBetweenMessages: 2000, randomizeDelay: false, stopOnError: false };
    expect(delayAfterItem(options, 0.99)).toBe(2000);
    const randomized = { ...options, randomizeDelay: true };
    expect(delayAfterItem(randomized, 0)).toBe(2000);
    expect(delayAfterItem(randomized, 0.5)).toBe(2500);
    expect(delayAfterItem(randomized, 0.999)).toBe(2999);
  });
});
