/**
 * serverless.yml's webhook delivery Lambda: triggered by the webhook queue with partial batch failures, sized so a
 * batch's one attempt per webhook fits its timeout and the timeout fits the queue's visibility timeout, the queue
 * dead-lettering what keeps failing, and a role that grants what the delivery touches and nothing of the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { handler } from '#functions/webhook-delivery/handler.js';
import { loadEnv } from '#shared/config/env.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const yml = fs.readFileSync(path.join(ROOT, 'serverless.yml'), 'utf8');

/**
 * The lines of the block whose key `name:` starts at column `indent` (alone on its line, or opening a list item as
 * `functions:`'s do) up to the next key at that indent or less.
 */
function block(name: string, indent: number): string {
  const lines = yml.split('\n');
  const start = lines.findIndex(
    (line) => line === `${' '.repeat(indent)}${name}:` || line === `${' '.repeat(indent - 2)}- ${name}:`,
  );
  if (start < 0) throw new Error(`${name} not found in serverless.yml`);
  const end = lines.findIndex(
    (line, index) =>
      index > start && line.trim() !== '' && line.search(/\S/) <= indent && !line.trim().startsWith('#'),
  );
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

const number = (text: string, key: string): number => {
  const value = new RegExp(`^\\s+${key}: (\\d+)\\s*$`, 'm').exec(text)?.[1];
  if (value === undefined) throw new Error(`${key} not found`);
  return Number(value);
};

describe('the webhook delivery function in serverless.yml', () => {
  const fn = block('webhookDelivery', 4);
  const role = block('WebhookDeliveryRole', 4);
  const queue = block('WebhookQueue', 4);

  it('runs functions/webhook-delivery/handler.ts, which exports the handler', () => {
    expect(fn).toMatch(/^\s+handler: functions\/webhook-delivery\/handler\.handler$/m);
    expect(typeof handler).toBe('function');
    expect(fn).toMatch(/^\s+role: WebhookDeliveryRole$/m);
  });

  it('is triggered by the webhook queue, in batches, reporting the records that failed', () => {
    expect(fn).toMatch(/- sqs:\n\s+arn: !GetAtt WebhookQueue\.Arn\n/);
    expect(fn).toMatch(/^\s+functionResponseType: ReportBatchItemFailures$/m);
    const batchSize = number(fn, 'batchSize');
    expect(batchSize).toBeGreaterThanOrEqual(1);
    expect(batchSize).toBeLessThanOrEqual(10);
    expect(fn).not.toMatch(/httpApi/);
  });

  it('has time for one attempt per webhook (WEBHOOK_TIMEOUT) and less than the visibility timeout', () => {
    const timeout = number(fn, 'timeout');
    expect(timeout * 1000).toBeGreaterThanOrEqual(loadEnv({}).WEBHOOK_TIMEOUT * 2);
    // AWS refuses an SQS trigger whose queue hides a message for less than the function may run.
    expect(queue).toMatch(/VisibilityTimeout: \$\{param:webhookVisibilityTimeoutS\}/);
    expect(timeout).toBeLessThanOrEqual(number(block('default', 2), 'webhookVisibilityTimeoutS'));
  });

  it('reads the queue whose poison messages go to the dead-letter queue after webhookMaxReceives', () => {
    expect(queue).toMatch(/deadLetterTargetArn: !GetAtt WebhookDeadLetterQueue\.Arn/);
    expect(queue).toMatch(/maxReceiveCount: \$\{param:webhookMaxReceives\}/);
  });

  it('may consume and send to the webhook queue, use the tables and read media files, nothing else', () => {
    expect(role).toMatch(
      /- sqs:ReceiveMessage\n\s+- sqs:DeleteMessage\n\s+- sqs:ChangeMessageVisibility\n\s+- sqs:GetQueueAttributes\n\s+- sqs:SendMessage\n\s+Resource: !GetAtt WebhookQueue\.Arn/,
    );
    expect(role).not.toMatch(/CommandQueue/);
    for (const action of ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'BatchWriteItem']) {
      expect(role).toContain(`dynamodb:${action}`);
    }
    expect(role).not.toMatch(/dynamodb:(Scan|DeleteTable|\*)/);
    expect(role).toMatch(/log-group:\/aws\/lambda\/\$\{self:service\}-\$\{sls:stage\}-webhookDelivery:\*/);
    // Inline media: the message's file is read, never written or listed.
    expect(role).toMatch(/Action: s3:GetObject\n\s+Resource: \*mediaObjects/);
    expect(role).not.toMatch(/s3:(PutObject|DeleteObject|ListBucket|\*)/);
  });
});
