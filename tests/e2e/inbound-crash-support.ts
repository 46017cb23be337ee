/**
 * Helpers of the inbound crash tests: what the simulated network considers delivered to the linked device (the
 * device confirmed it, so the server will not send it again), and what a killed gateway had stored, read from its
 * SQLite file while no process has it open.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import type { SentText } from './inbound-support.js';

/** A message a contact sent, as the simulator's `GET /admin/contacts/{number}/sent` answers it. */
interface ContactSent {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'played';
}

/**
 * The ids among `texts` that the device confirmed. The simulator drops a message from its re-delivery set when the
 * device sends a `<receipt>` for it (or an `<ack class=message>`, which Baileys sends for texts only on errors); the
 * same receipt moves the contact's copy past `sent`, so this is the simulator's own record of confirmations.
 */
export async function confirmedBySimulator(
  sim: SimulatorProcess,
  texts: readonly SentText[],
): Promise<Set<string>> {
  const wanted = new Set(texts.map((t) => t.id));
  const contacts = [...new Set(texts.map((t) => t.contact))];
  const lists = await Promise.all(
    contacts.map(async (contact) => (await sim.admin.get<ContactSent[]>(`/contacts/${contact}/sent`)).body),
  );
  return new Set(lists.flat().flatMap((m) => (wanted.has(m.id) && m.status !== 'sent' ? [m.id] : [])));
}

/** The network ids of the incoming rows in the gateway's data store under `dataDir` (no gateway running). */
export function storedIncomingIds(dataDir: string): Set<string> {
  const db = new Database(path.join(dataDir, 'data.sqlite'));
  try {
    const rows = db
      .prepare("SELECT wa_message_id AS id FROM messages WHERE direction = 'incoming'")
      .all() as { id: string }[];
    return new Set(rows.map((row) => row.id));
  } finally {
    db.close();
  }
}
