/**
 * The engine operation rows as data: every export of a domain's file is a row (the registry takes the files whole),
 * names are unique and `<domain>.<action>`, every path names only its input's fields, and no two rows claim one
 * method and path. (The route table matches their literal segments first: tests/unit/functions/route-table.test.ts.)
 */
import { describe, expect, it } from '@jest/globals';
import { engineOperationRoute, pathParameters } from '#functions/http/engine-operation-route.js';
import * as calls from '#shared/domain/engine-operations/calls.js';
import * as chats from '#shared/domain/engine-operations/chats.js';
import * as contacts from '#shared/domain/engine-operations/contacts.js';
import {
  ENGINE_OPERATION_ROWS,
  ENGINE_OPERATIONS,
} from '#shared/domain/engine-operations/engine-operations.js';
import * as groupMembers from '#shared/domain/engine-operations/group-members.js';
import * as groupPictures from '#shared/domain/engine-operations/group-pictures.js';
import * as groups from '#shared/domain/engine-operations/groups.js';
import * as labels from '#shared/domain/engine-operations/labels.js';
import * as presence from '#shared/domain/engine-operations/presence.js';

describe('engine operation rows', () => {
  it("takes every export of a domain's file as a row, under the row's own name", () => {
    const domains = [contacts, chats, presence, groups, groupMembers, groupPictures, calls, labels];
    const exported = domains.flatMap((domain) => Object.values(domain));
    expect(Object.values(chats).length).toBeGreaterThan(0);
    for (const row of exported)
      expect(ENGINE_OPERATIONS[row.name as keyof typeof ENGINE_OPERATIONS]).toBe(row);
    expect(ENGINE_OPERATION_ROWS).toHaveLength(exported.length);
  });

  it.each(ENGINE_OPERATION_ROWS.map((row) => [row.name, row] as const))(
    '%s: a dotted name, a path of its input fields, an example its schemas accept',
    (name, row) => {
      expect(name).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
      const fields = pathParameters(row.http.path).filter((param) => param !== 'sessionId');
      for (const field of fields) expect(Object.keys(row.input.shape)).toContain(field);
      expect(row.input.safeParse(row.example.input).error).toBeUndefined();
      expect(row.result.safeParse(row.example.result).error).toBeUndefined();
    },
  );

  it('gives each method and path to one row', () => {
    const keys = ENGINE_OPERATION_ROWS.map((row) => `${row.http.method} ${row.http.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('refuses a row whose path names a field its input lacks', () => {
    const [row] = ENGINE_OPERATION_ROWS;
    if (!row) throw new Error('no rows');
    const broken = { ...row, http: { ...row.http, path: '/api/sessions/{sessionId}/x/{missing}' as const } };
    expect(() => engineOperationRoute(broken)).toThrow(/missing/);
  });
});
