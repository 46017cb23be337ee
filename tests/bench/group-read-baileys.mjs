// GET …/groups/{id} of a group of BENCH_GROUP_MEMBERS (default 1,000) members through the whole path with the real
// Baileys engine: HTTP → route → the owning host → the Baileys engine's group port, which asks the network for the
// group's metadata (a `w:g2` IQ) each time → the WhatsApp network simulator (its own process) answers the group node
// → Baileys parses it → the route answers. The gateway runs in this process (baileys-send.mjs's withLinkedGateway:
// one session linked by QR), so the client's own work is inside the figures, as in chat-list.mjs.
// Seeding: BENCH_GROUP_MEMBERS - 1 simulated contacts (admin API), then the linked account creates the group through
// the gateway (`POST …/groups` with the first 256, the most one request takes) and adds the rest 256 at a time
// (`POST …/groups/{id}/participants`), as a client would. Then 20 warm-up reads and BENCH_GROUP_RUNS (default 200)
// timed reads, one after the other. For comparison, as many reads of the engine's group port directly (the runner's
// `port('groups').get`, no HTTP, no route): what the network round trip and Baileys' parse cost on their own.
import { withLinkedGateway } from './baileys-send.mjs';
import { stats } from './baileys-support.mjs';

const MEMBERS = Number(process.env.BENCH_GROUP_MEMBERS ?? 1_000);
const RUNS = Number(process.env.BENCH_GROUP_RUNS ?? 200);
const WARM_UP = 20;
/** The gateway's ParticipantList takes at most 256 people per request (create, add). */
const PER_REQUEST = 256;
const FIRST_CONTACT = 15580000000;

function expectStatus(res, status, what) {
  if (res.status !== status)
    throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

export async function groupReadBaileys() {
  return withLinkedGateway('bench-group-read', {}, async ({ sim, api, link, runner }) => {
    const numbers = Array.from({ length: MEMBERS - 1 }, (_, i) => String(FIRST_CONTACT + i));
    const seedStarted = performance.now();
    // Strangers (`saved: false`): a saved contact is pushed into every linked account's address book, one app-state
    // sync per contact, which is not what this bench measures; group members need not be in the address book.
    for (const number of numbers) await sim.admin('POST', '/contacts', { number, saved: false });
    const contactsMs = performance.now() - seedStarted;

    const participants = numbers.map((number) => `${number}@c.us`);
    const created = expectStatus(
      await api('POST', `/api/sessions/${link.id}/groups`, {
        name: 'Bench 1000',
        participants: participants.slice(0, PER_REQUEST),
      }),
      201,
      'create group',
    );
    const groupPath = `/api/sessions/${link.id}/groups/${encodeURIComponent(created.id)}`;
    for (let offset = PER_REQUEST; offset < participants.length; offset += PER_REQUEST) {
      const added = expectStatus(
        await api('POST', `${groupPath}/participants`, {
          participants: participants.slice(offset, offset + PER_REQUEST),
        }),
        200,
        'add participants',
      );
      const refused = added.results.filter((result) => !result.success);
      if (refused.length > 0) throw new Error(`adds refused: ${JSON.stringify(refused.slice(0, 5))}`);
    }
    const seedMs = performance.now() - seedStarted;
    const simGroup = await sim.admin('GET', `/groups/${created.id}`);
    if (simGroup.members.length !== MEMBERS)
      throw new Error(`the simulator's group has ${simGroup.members.length} members, not ${MEMBERS}`);

    const times = [];
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const started = performance.now();
      const res = await api('GET', groupPath);
      const elapsed = performance.now() - started;
      const group = expectStatus(res, 200, `GET ${groupPath}`);
      if (group.participants.length !== MEMBERS)
        throw new Error(
          `GET ${groupPath} answered ${group.participants.length} participants, not ${MEMBERS}`,
        );
      if (i >= WARM_UP) times.push(elapsed);
    }
    const groups = runner.port('groups');
    const engineTimes = [];
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const started = performance.now();
      const group = await groups.get({ groupId: created.id });
      const elapsed = performance.now() - started;
      if (group.participants.length !== MEMBERS)
        throw new Error(`the engine answered ${group.participants.length} participants, not ${MEMBERS}`);
      if (i >= WARM_UP) engineTimes.push(elapsed);
    }
    return {
      engine: 'baileys (simulator)',
      groupMembers: MEMBERS,
      seed: {
        contacts: numbers.length,
        contactsMs: Math.round(contactsMs),
        groupMs: Math.round(seedMs - contactsMs),
        totalMs: Math.round(seedMs),
      },
      runs: RUNS,
      groupLatencyMs: stats(times),
      engineOnlyGroupLatencyMs: stats(engineTimes),
    };
  });
}
