/**
 * Conditions and lease writes of the DynamoDB session store. Each condition exists twice: as a check on a row just
 * read (the port's `updateConditionsHold`, so `update` answers conflict without a doomed write) and as a
 * ConditionExpression here, which is what makes the write atomic. A lease write is a single UpdateCommand whose
 * condition carries the whole rule, so of two nodes racing for a session exactly one passes. Timestamps are ISO
 * text, so `<=` on them is time order.
 */
import { type DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SessionStatus } from '#shared/domain/session.js';
import { type LeaseClaim, leaseEnd, type SessionUpdateOptions } from '#shared/ports/session-store.port.js';
import { type Item, isConditionFailed } from './dynamodb-support.js';

/** The expression parts of a lease write, without table and key. */
export type LeaseWrite = Required<
  Pick<
    UpdateCommandInput,
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >
>;

type Names = Record<string, string>;
type Values = Record<string, unknown>;

function statusClause(statuses: readonly SessionStatus[], names: Names, values: Values): string {
  // An empty list admits no status: a clause that cannot hold next to attribute_exists(pk) (IN () is a syntax error).
  if (statuses.length === 0) return 'attribute_not_exists(pk)';
  names['#status'] = 'status';
  const placeholders = statuses.map((status, index) => {
    values[`:s${index}`] = status;
    return `:s${index}`;
  });
  return `#status IN (${placeholders.join(', ')})`;
}

function ownerClause(nodeId: string, names: Names, values: Values): string {
  names['#nodeId'] = 'nodeId';
  values[':owner'] = nodeId;
  return '#nodeId = :owner';
}

/** No live lease at `instant`. Released rows hold NULL attributes, older items may lack them: both are unowned. */
function unownedClause(instant: Date, names: Names, values: Values): string {
  names['#nodeId'] = 'nodeId';
  names['#leaseExpiresAt'] = 'leaseExpiresAt';
  values[':nullType'] = 'NULL';
  values[':unownedAt'] = instant.toISOString();
  // Comparing a NULL attribute with a string is false, so a nodeId without an expiry stays held, as in SQLite.
  return '(attribute_not_exists(#nodeId) OR attribute_type(#nodeId, :nullType) OR #leaseExpiresAt <= :unownedAt)';
}

/** ConditionExpression clauses for `options`, their placeholders added to `names` and `values`. */
export function conditionClauses(options: SessionUpdateOptions, names: Names, values: Values): string[] {
  const clauses: string[] = [];
  if (options.expectStatus !== undefined) clauses.push(statusClause(options.expectStatus, names, values));
  if (options.expectOwner !== undefined) clauses.push(ownerClause(options.expectOwner, names, values));
  if (options.expectUnownedAt !== undefined) {
    clauses.push(unownedClause(options.expectUnownedAt, names, values));
  }
  if (options.expectConfig !== undefined) {
    // DynamoDB compares a map attribute with a map value as a whole (every key and value, in any order).
    names['#config'] = 'config';
    values[':expectConfig'] = options.expectConfig;
    clauses.push('#config = :expectConfig');
  }
  return clauses;
}

/** Takes the lease when it is free at the claimant's clock or already the claimant's, and the status fits. */
export function claimWrite(claim: LeaseClaim, expectStatus?: readonly SessionStatus[]): LeaseWrite {
  const names: Names = { '#nodeUrl': 'nodeUrl', '#claimedAt': 'claimedAt' };
  const values: Values = {
    ':url': claim.nodeUrl,
    ':now': claim.now.toISOString(),
    ':expires': leaseEnd(claim),
  };
  const free = `(${unownedClause(claim.now, names, values)} OR ${ownerClause(claim.nodeId, names, values)})`;
  const clauses = ['attribute_exists(pk)', free];
  if (expectStatus !== undefined) clauses.push(statusClause(expectStatus, names, values));
  return {
    UpdateExpression: 'SET #nodeId = :owner, #nodeUrl = :url, #claimedAt = :now, #leaseExpiresAt = :expires',
    ConditionExpression: clauses.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Extends the lease and refreshes the URL while `claim.nodeId` still holds it; claimedAt stays. */
export function renewWrite(claim: LeaseClaim): LeaseWrite {
  const names: Names = { '#nodeUrl': 'nodeUrl', '#leaseExpiresAt': 'leaseExpiresAt' };
  const values: Values = { ':url': claim.nodeUrl, ':expires': leaseEnd(claim) };
  return {
    UpdateExpression: 'SET #nodeUrl = :url, #leaseExpiresAt = :expires',
    ConditionExpression: `attribute_exists(pk) AND ${ownerClause(claim.nodeId, names, values)}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Clears the four lease fields while `nodeId` holds the lease. */
export function releaseWrite(nodeId: string): LeaseWrite {
  const names: Names = {
    '#nodeUrl': 'nodeUrl',
    '#claimedAt': 'claimedAt',
    '#leaseExpiresAt': 'leaseExpiresAt',
  };
  const values: Values = { ':null': null };
  return {
    UpdateExpression: 'SET #nodeId = :null, #nodeUrl = :null, #claimedAt = :null, #leaseExpiresAt = :null',
    ConditionExpression: `attribute_exists(pk) AND ${ownerClause(nodeId, names, values)}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Sends one conditional update; the item as written, or null when its condition failed (nothing written). */
export async function sendConditional(
  doc: DynamoDBDocumentClient,
  input: UpdateCommandInput,
): Promise<Item | null> {
  try {
    const result = await doc.send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }));
    return result.Attributes ?? null;
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
}
