/**
 * The migration runner: steps applied once each, in id order, each under the write lock; and on a file whose schema
 * is up to date (every start but the first after an upgrade) nothing but one read of the ledger: no DDL, no write
 * transaction, no step's `up`. Every statement the connection runs is traced (better-sqlite3's `verbose`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { DATA_STORE_MIGRATIONS } from '#shared/adapters/sqlite/data-store.migrations.js';
import { type Migration, runMigrations, type SqliteDb } from '#shared/adapters/sqlite/sqlite-database.js';

describe('runMigrations', () => {
  let dir: string;
  let file: string;
  const open: SqliteDb[] = [];

  /** A connection to the test file whose executed statements land in `sql`. */
  function traced(sql: string[]): SqliteDb {
    const db = new Database(file, { verbose: (statement) => sql.push(String(statement)) });
    open.push(db);
    return db;
  }

  function step(id: string, applied: string[]): Migration {
    return {
      id,
      up(db) {
        applied.push(id);
        db.exec(`CREATE TABLE t_${id} (x INTEGER)`);
      },
    };
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-migrations-'));
    file = path.join(dir, 'db.sqlite');
  });
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('applies every step once, in id order whatever the list order, each in a write transaction', () => {
    const applied: string[] = [];
    const sql: string[] = [];
    const steps = [
      step('0003', applied),
      step('0001', applied),
      step('0010', applied),
      step('0002', applied),
    ];
    expect(runMigrations(traced(sql), steps)).toEqual(['0001', '0002', '0003', '0010']);
    expect(applied).toEqual(['0001', '0002', '0003', '0010']);
    expect(sql.filter((statement) => statement === 'BEGIN IMMEDIATE')).toHaveLength(4);
    expect(runMigrations(traced([]), steps)).toEqual([]);
    expect(applied).toHaveLength(4);
  });

  it('runs no DDL, no write transaction and no step on an up-to-date file: one read of the ledger', () => {
    runMigrations(traced([]), DATA_STORE_MIGRATIONS);
    const sql: string[] = [];
    const upCalls: string[] = [];
    const spied = DATA_STORE_MIGRATIONS.map((migration) => ({
      id: migration.id,
      up(db: SqliteDb) {
        upCalls.push(migration.id);
        migration.up(db);
      },
    }));
    expect(runMigrations(traced(sql), spied)).toEqual([]);
    expect(upCalls).toEqual([]);
    expect(sql.length).toBeGreaterThan(0);
    for (const statement of sql) expect(statement).toMatch(/^SELECT /);
  });

  it('applies only the steps the ledger lacks, a later release adding one', () => {
    const applied: string[] = [];
    runMigrations(traced([]), [step('0001', applied), step('0002', applied)]);
    const sql: string[] = [];
    expect(
      runMigrations(traced(sql), [step('0001', applied), step('0002', applied), step('0003', applied)]),
    ).toEqual(['0003']);
    expect(applied).toEqual(['0001', '0002', '0003']);
    expect(sql.filter((statement) => statement === 'BEGIN IMMEDIATE')).toHaveLength(1);
  });

  it('checks a pending step again under the lock: one recorded after the ledger was read is not applied', () => {
    const applied: string[] = [];
    runMigrations(traced([]), [step('0001', applied)]);
    // Both steps are pending when the ledger is read; by the time 0003 takes the lock, it is recorded (here by
    // 0002's step itself, standing in for another process that applied it meanwhile).
    const recordsNext: Migration = {
      id: '0002',
      up(db) {
        applied.push('0002');
        db.prepare("INSERT INTO schema_migrations (id, applied_at) VALUES ('0003', 'elsewhere')").run();
      },
    };
    expect(runMigrations(traced([]), [step('0001', applied), recordsNext, step('0003', applied)])).toEqual([
      '0002',
    ]);
    expect(applied).toEqual(['0001', '0002']);
  });
});
