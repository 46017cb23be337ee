// What chat-list.mjs and chat-list-aws.mjs seed the test engine's network with, in either mode: one received message
// per chat (chat i is 1556… + i, each a second later than the one before, the last a second ago), and a group of
// `members` people with the account as its superadmin.

/** Chat `i`'s received message, of `count` chats in all, to account `own`, at `now` (epoch s) less `count - i`. */
export function benchInbound(i, count, own, now) {
  const chatId = `${15560000000 + i}@c.us`;
  return {
    waMessageId: `BENCH${i}`,
    chatId,
    from: chatId,
    to: `${own}@c.us`,
    author: null,
    body: `message ${i}`,
    type: 'text',
    timestamp: now - count + i,
    pushName: null,
  };
}

/** The test network's group `id` with the account `own` and `members - 1` others. */
export function benchGroup(id, own, now, members) {
  const others = Array.from({ length: members - 1 }, (_, i) => [`${15570000000 + i}@c.us`, 'member']);
  return {
    id,
    subject: 'Bench',
    description: null,
    owner: `${own}@c.us`,
    creation: now,
    members: new Map([[`${own}@c.us`, 'superadmin'], ...others]),
    settings: { announce: false, locked: false, ephemeralSeconds: 0, memberAddMode: 'admins' },
    inviteCode: 'BENCH',
    requests: new Map(),
  };
}

/** A chat-list result's verdict: every kind's p99 under 50 ms (issue 37's goal). */
export function chatListVerdict(r) {
  const p99 = Math.max(
    r.pageOf1000LatencyMs.p99,
    r.lastPageOf1000LatencyMs.p99,
    r.pageOf50LatencyMs.p99,
    r.groupLatencyMs.p99,
  );
  return { ...r, goals: { p99Ms: '< 50' }, met: p99 < 50 };
}
