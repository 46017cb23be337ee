/**
 * A message batch as a row of snake_case columns (spec: "Column names of this table are snake_case"), the nested
 * values as JSON text: the SQLite table and the DynamoDB items both store this shape. Reading is defensive: a
 * corrupt JSON column reads as empty rather than making the row unreadable.
 */
import { z } from 'zod';
import {
  BatchItemResult,
  BatchOptions,
  BatchProgress,
  BatchStatus,
  BulkItem,
  type MessageBatch,
} from '#shared/domain/message-batch.js';

export interface BatchRow {
  id: string;
  batch_id: string;
  session_id: string;
  status: string;
  messages: string;
  options: string;
  progress: string;
  results: string;
  current_index: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** The columns a batch's progress changes (everything but its identity, items, options and creation time). */
export const BATCH_CHANGING_COLUMNS = [
  'status',
  'progress',
  'results',
  'current_index',
  'updated_at',
  'started_at',
  'completed_at',
] as const satisfies readonly (keyof BatchRow)[];

export type BatchChanges = Pick<BatchRow, (typeof BATCH_CHANGING_COLUMNS)[number]>;

export function toBatchRow(batch: MessageBatch): BatchRow {
  return {
    id: batch.id,
    batch_id: batch.batchId,
    session_id: batch.sessionId,
    messages: JSON.stringify(batch.messages),
    options: JSON.stringify(batch.options),
    ...batchChanges(batch),
    created_at: batch.createdAt,
  };
}

export function batchChanges(batch: MessageBatch): BatchChanges {
  return {
    status: batch.status,
    progress: JSON.stringify(batch.progress),
    results: JSON.stringify(batch.results),
    current_index: batch.currentIndex,
    updated_at: batch.updatedAt,
    started_at: batch.startedAt,
    completed_at: batch.completedAt,
  };
}

function parsed<T>(text: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : fallback;
  } catch {
    return fallback;
  }
}

const NO_PROGRESS: BatchProgress = { total: 0, sent: 0, failed: 0, pending: 0, cancelled: 0 };

export function fromBatchRow(row: BatchRow): MessageBatch {
  const status = BatchStatus.safeParse(row.status);
  return {
    id: row.id,
    batchId: row.batch_id,
    sessionId: row.session_id,
    // An unknown status is taken as failed: such a batch is never sent again.
    status: status.success ? status.data : 'failed',
    messages: parsed(row.messages, z.array(BulkItem), []),
    options: parsed(row.options, BatchOptions, BatchOptions.parse({})),
    progress: parsed(row.progress, BatchProgress, NO_PROGRESS),
    results: parsed(row.results, z.array(BatchItemResult), []),
    currentIndex: row.current_index,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
  };
}
