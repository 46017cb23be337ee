/**
 * The SQS trigger of serverless.yml's webhookDelivery function, for `serverless offline` (which serves HTTP events
 * only): polls the webhook queue on the emulator, invokes the function through serverless-offline's Lambda API with
 * each batch as an SQS event, and deletes the messages it did not report in `batchItemFailures`
 * (ReportBatchItemFailures). A reported message, or the whole batch of an invocation that failed, stays on the
 * queue and comes back after its visibility timeout, as with Lambda's event source mapping.
 */

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A received SQS message as a Lambda SQS event record. */
function toRecord(message, { queueUrl, region }) {
  const queueName = queueUrl.split('/').pop();
  return {
    messageId: message.MessageId,
    receiptHandle: message.ReceiptHandle,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'offline',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
      ...message.Attributes,
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${region}:000000000000:${queueName}`,
    awsRegion: region,
  };
}

/** The ids the function asks to see again: its reported failures, or every record when the invocation failed. */
async function invoke(url, event) {
  const everything = new Set(event.Records.map((record) => record.messageId));
  try {
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(event) });
    const text = await response.text();
    if (!response.ok || response.headers.get('x-amz-function-error')) return everything;
    const payload = JSON.parse(text);
    if (!Array.isArray(payload?.batchItemFailures)) return everything;
    return new Set(payload.batchItemFailures.map((failure) => failure.itemIdentifier));
  } catch {
    return everything;
  }
}

/** The ids `handler` asks to see again, as invoke does for a function behind serverless offline. */
async function invokeHere(handler, event) {
  try {
    const answer = await handler(event);
    if (!Array.isArray(answer?.batchItemFailures)) return new Set(event.Records.map((r) => r.messageId));
    return new Set(answer.batchItemFailures.map((failure) => failure.itemIdentifier));
  } catch {
    return new Set(event.Records.map((record) => record.messageId));
  }
}

/**
 * Starts polling. Options: `sqsEndpoint`, `region`, `queueUrl`; `lambdaUrl` (serverless-offline's Lambda port,
 * e.g. http://127.0.0.1:3002) and `functionName` (`<service>-<stage>-<function>`), or `handler` (the function itself,
 * called in this process with each event: the api-aws tests); `batchSize` (default 10),
 * `pollers` (batches in flight at once, default 2), `pollMs` (pause after an empty receive, default 100: short
 * polls, because the emulator holds a long poll for its whole wait even when messages are there).
 * Answers `{ stop() }`.
 */
export async function startSqsTrigger(options) {
  const { SQSClient, ReceiveMessageCommand, DeleteMessageCommand } = await import('@aws-sdk/client-sqs');
  const { queueUrl, region = 'us-east-1' } = options;
  const client = new SQSClient({ endpoint: options.sqsEndpoint, region, credentials: LOCAL_CREDENTIALS });
  const url = `${options.lambdaUrl}/2015-03-31/functions/${options.functionName}/invocations`;
  let stopped = false;

  async function poll() {
    while (!stopped) {
      let messages = [];
      try {
        const answer = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: options.batchSize ?? 10,
            WaitTimeSeconds: 0,
            AttributeNames: ['All'],
            MessageSystemAttributeNames: ['All'],
          }),
        );
        messages = answer.Messages ?? [];
      } catch {
        // The emulator is stopping or restarting: try again after the pause.
      }
      if (messages.length === 0) {
        await sleep(options.pollMs ?? 100);
        continue;
      }
      const event = { Records: messages.map((message) => toRecord(message, { queueUrl, region })) };
      const again = options.handler ? await invokeHere(options.handler, event) : await invoke(url, event);
      for (const message of messages) {
        if (again.has(message.MessageId)) continue;
        await client
          .send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }))
          .catch(() => {});
      }
    }
  }

  const loops = Array.from({ length: options.pollers ?? 2 }, () => poll());
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      client.destroy();
    },
  };
}
