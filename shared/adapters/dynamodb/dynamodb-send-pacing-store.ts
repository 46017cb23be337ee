/**
 * SendPacingStore on the data table: one item per session, pk `PACING#<sessionId>`, sk `PACING`, holding the UTC
 * `day` its `sent`/`cold` counts belong to, the failure streak `failures` and `openUntil` (epoch ms) while the
 * breaker is open. Every change is a conditional update, so concurrent sends never both take the last unit of an
 * allowance: an admitted send of the current day costs one UpdateItem; the first send of a day, and a refusal, also
 * read the item. `ttl` (epoch s) lets DynamoDB remove the item a week after it last mattered; reads never rely on it.
 */
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#shared/errors/app-error.js';
import type {
  PacingAdmission,
  PacingAdmissionRequest,
  PacingFailure,
  PacingFailureOutcome,
  SendPacingRecord,
  SendPacingStore,
} from '#shared/ports/send-pacing-store.port.js';
import { getItem, guard, type Item, isConditionFailed } from './dynamodb-support.js';

const STORE = 'Data store';
/** Updates tried while other sends of the session keep changing the item between the update and its read. */
const MAX_ATTEMPTS = 8;
const KEEP_S = 7 * 24 * 3600;

const key = (sessionId: string) => ({ pk: `PACING#${sessionId}`, sk: 'PACING' });
/**
 * Every attribute is named through `#<attribute>` (`day` and `ttl` are reserved words); DynamoDB refuses names an
 * expression does not use, so each update names exactly those of its expressions.
 */
const namesIn = (...expressions: string[]): Record<string, string> =>
  Object.fromEntries([...new Set(expressions.join(' ').match(/#\w+/g))].map((name) => [name, name.slice(1)]));
/** The breaker lets sends through: never opened, or its cooldown has passed. */
const CLOSED = '(attribute_not_exists(#openUntil) OR #openUntil <= :now)';
const ttlAfter = (ms: number) => Math.ceil(ms / 1000) + KEEP_S;
const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);

/** SendPacingStore on the data table. */
export class DynamoDbSendPacingStore implements SendPacingStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  admit(sessionId: string, request: PacingAdmissionRequest): Promise<PacingAdmission> {
    return guard(STORE, async () => {
      const countsCold = request.cold && request.coldCap !== null;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        if (await this.countToday(sessionId, request, countsCold)) return { admitted: true };
        const item = await getItem(this.doc, this.table, key(sessionId));
        const openUntil = numberOr(item?.openUntil, 0);
        if (openUntil > request.now) return { admitted: false, rule: 'breaker_open', openUntil };
        const today = item?.day === request.day;
        const sent = today ? numberOr(item?.sent, 0) : 0;
        const cold = today ? numberOr(item?.cold, 0) : 0;
        if (sent >= request.dailyCap) return { admitted: false, rule: 'daily_cap', count: sent };
        if (countsCold && cold >= (request.coldCap ?? 0)) {
          return { admitted: false, rule: 'cold_daily_cap', count: cold };
        }
        // Counts of another day (or none yet): this send starts the day's. Otherwise another send changed the item
        // between the update and the read: try again.
        if (!today && (await this.startDay(sessionId, request, countsCold))) return { admitted: true };
      }
      throw new ConflictError('CONFLICT', `${STORE}: the session's send pacing keeps changing; retry`);
    });
  }

  recordFailure(sessionId: string, failure: PacingFailure): Promise<PacingFailureOutcome> {
    return guard(STORE, async () => {
      const counted = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(sessionId),
          UpdateExpression: 'SET #ttl = :ttl ADD #failures :one',
          ExpressionAttributeNames: namesIn('#ttl #failures'),
          ExpressionAttributeValues: { ':ttl': ttlAfter(failure.now + failure.cooldownMs), ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const item = (counted.Attributes ?? {}) as Item;
      let failures = numberOr(item.failures, 1);
      let openUntil: number | null = typeof item.openUntil === 'number' ? item.openUntil : null;
      if (openUntil !== null && openUntil <= failure.now) {
        // A served cooldown closes the breaker: this failure starts a new streak. Lost to a concurrent failure
        // that restarted it first, this one is simply part of that streak.
        if (!(await this.restartStreak(sessionId, openUntil))) {
          return { consecutiveFailures: failures, tripped: false };
        }
        failures = 1;
        openUntil = null;
      }
      const tripped =
        openUntil === null &&
        failures >= failure.threshold &&
        (await this.open(sessionId, failure.now + failure.cooldownMs));
      return { consecutiveFailures: failures, tripped };
    });
  }

  recordSuccess(sessionId: string): Promise<void> {
    return guard(STORE, async () => {
      await this.conditionally({
        UpdateExpression: 'SET #failures = :zero REMOVE #openUntil',
        ConditionExpression: '#failures > :zero OR attribute_exists(#openUntil)',
        ExpressionAttributeValues: { ':zero': 0 },
        sessionId,
      });
    });
  }

  find(sessionId: string): Promise<SendPacingRecord | null> {
    return guard(STORE, async () => {
      const item = await getItem(this.doc, this.table, key(sessionId));
      if (!item) return null;
      return {
        sessionId,
        day: typeof item.day === 'string' ? item.day : null,
        sent: numberOr(item.sent, 0),
        cold: numberOr(item.cold, 0),
        failures: numberOr(item.failures, 0),
        openUntil: typeof item.openUntil === 'number' ? item.openUntil : null,
      };
    });
  }

  restore({ sessionId, day, sent, cold, failures, openUntil }: SendPacingRecord): Promise<void> {
    return guard(STORE, async () => {
      // Kept a week past the restore, or past the breaker's end when that is later (the TTL of any other write).
      const ttl = ttlAfter(Math.max(Date.now(), openUntil ?? 0));
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...key(sessionId),
            ...(day === null ? {} : { day }),
            sent,
            cold,
            failures,
            ...(openUntil === null ? {} : { openUntil }),
            ttl,
          },
        }),
      );
    });
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(STORE, async () => {
      const deleted = await this.doc.send(
        new DeleteCommand({ TableName: this.table, Key: key(sessionId), ReturnValues: 'ALL_OLD' }),
      );
      return deleted.Attributes ? 1 : 0;
    });
  }

  /** Counts the send into the stored day's counts when that is `request.day`, the caps allow and it is closed. */
  private countToday(
    sessionId: string,
    request: PacingAdmissionRequest,
    countsCold: boolean,
  ): Promise<boolean> {
    return this.conditionally({
      UpdateExpression: `SET #sent = #sent + :one, #ttl = :ttl${countsCold ? ', #cold = #cold + :one' : ''}`,
      ConditionExpression: `#day = :day AND #sent < :dailyCap${countsCold ? ' AND #cold < :coldCap' : ''} AND ${CLOSED}`,
      ExpressionAttributeValues: {
        ':one': 1,
        ':ttl': ttlAfter(request.now),
        ':day': request.day,
        ':dailyCap': request.dailyCap,
        ':now': request.now,
        ...(countsCold ? { ':coldCap': request.coldCap } : {}),
      },
      sessionId,
    });
  }

  /** Replaces counts of another day (or none) with this send's, unless the day was started meanwhile. */
  private startDay(
    sessionId: string,
    request: PacingAdmissionRequest,
    countsCold: boolean,
  ): Promise<boolean> {
    // The caps are at least 1, so the day's first send always fits; a cap below that refuses it like the others.
    if (request.dailyCap < 1 || (countsCold && (request.coldCap ?? 0) < 1)) return Promise.resolve(false);
    return this.conditionally({
      UpdateExpression: 'SET #day = :day, #sent = :one, #cold = :cold, #ttl = :ttl',
      ConditionExpression: `(attribute_not_exists(#day) OR #day <> :day) AND ${CLOSED}`,
      ExpressionAttributeValues: {
        ':day': request.day,
        ':one': 1,
        ':cold': countsCold ? 1 : 0,
        ':ttl': ttlAfter(request.now),
        ':now': request.now,
      },
      sessionId,
    });
  }

  private restartStreak(sessionId: string, servedUntil: number): Promise<boolean> {
    return this.conditionally({
      UpdateExpression: 'SET #failures = :one REMOVE #openUntil',
      ConditionExpression: '#openUntil = :served',
      ExpressionAttributeValues: { ':one': 1, ':served': servedUntil },
      sessionId,
    });
  }

  /** Opens the breaker until `until` unless it is open already (then another failure tripped it). */
  private open(sessionId: string, until: number): Promise<boolean> {
    return this.conditionally({
      UpdateExpression: 'SET #openUntil = :until, #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(#openUntil)',
      ExpressionAttributeValues: { ':until': until, ':ttl': ttlAfter(until) },
      sessionId,
    });
  }

  /** One conditional update of the session's item: true when it applied, false when its condition failed. */
  private async conditionally(update: {
    sessionId: string;
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeValues: Record<string, unknown>;
  }): Promise<boolean> {
    const { sessionId, ...expression } = update;
    const names = namesIn(expression.UpdateExpression, expression.ConditionExpression);
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(sessionId),
          ...expression,
          ExpressionAttributeNames: names,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      throw error;
    }
  }
}
