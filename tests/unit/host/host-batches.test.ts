/**
 * The batches a host runs (HostBatches) against the memory stores and a fake host behind the command queue: a
 * session's launch resumes its unfinished batches and leaves finished ones alone, a batch runs at most once on a host
 * however often it is asked, and a stopped host ends its runs between two steps, leaving each batch where it got to.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { HostBatches } from '#host/batches/host-batches.js';
import { type MessageBatch, startedBatch, versionOf } from '#shared/domain/message-batch.js';
import { at } from '#tests/helpers/builders.js';
import { FakeBatchHost } from '#tests/helpers/fake-batch-host.js';

let host: FakeBatchHost;
let batches: HostBatches;

beforeEach(async () => {
  host = await new FakeBatchHost().start();
  batches = new HostBatches(host.deps);
});

async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let round = 0; round < 500; round++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition not reached');
}

const statusOf = async (batch: MessageBatch) => (await host.reread(batch)).status;

describe('HostBatches', () => {
  it("resumes the session's pending and processing batches, and leaves finished ones alone", async () => {
    const pending = await host.stored({ createdAt: at(2) }, 2);
    const processing = await host.stored({ createdAt: at(1) }, 2);
    await host.data.batches.update(startedBatch(processing, at(3)), versionOf(processing));
    const done = await host.stored({ createdAt: at(0) }, 2);
    await host.data.batches.update({ ...done, status: 'completed' }, versionOf(done));

    await batches.resume(host.session.id);
    await until(
      async () => (await statusOf(pending)) === 'completed' && (await statusOf(processing)) === 'completed',
    );
    expect(host.sent).toHaveLength(4);
    expect(await host.reread(done)).toMatchObject({ status: 'completed', currentIndex: 0, results: [] });
  });

  it('runs a batch at most once on a host, however often it is asked', async () => {
    const batch = await host.stored({}, 3);
    for (let i = 0; i < 3; i++) batches.run(host.session.id, batch.batchId);
    await batches.resume(host.session.id);
    await until(async () => (await statusOf(batch)) === 'completed');
    // One run waits once between two items; a second run of the same batch would have waited too.
    expect(host.sleeps).toEqual([1000, 1000]);
    expect(host.sent).toHaveLength(3);
  });

  it('ends its runs between two steps when stopped, each batch left where it got to; then starts none', async () => {
    const batch = await host.stored({}, 3);
    let stopped: Promise<void> | null = null;
    host.onSleep = async () => {
      stopped ??= batches.stop();
    };
    batches.run(host.session.id, batch.batchId);
    await until(async () => stopped !== null);
    await stopped;
    expect(await host.reread(batch)).toMatchObject({ status: 'processing', currentIndex: 1 });
    expect(host.sent).toHaveLength(1);

    batches.run(host.session.id, batch.batchId);
    await batches.resume(host.session.id);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(host.sent).toHaveLength(1);
  });

  it('leaves a batch whose session does not run here for the launch that brings the session back', async () => {
    const batch = await host.stored({}, 1);
    host.local = false;
    batches.run(host.session.id, batch.batchId);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(host.sent).toEqual([]);

    host.local = true;
    await batches.resume(host.session.id);
    await until(async () => (await statusOf(batch)) === 'completed');
    expect(host.sent).toHaveLength(1);
  });
});
