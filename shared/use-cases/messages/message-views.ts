import type { Message, MessageView } from '#shared/domain/message.js';
import type { IdentityStore } from '#shared/ports/identity-store.port.js';
import { lookUpPeople } from '#shared/use-cases/people/look-up-people.js';

/**
 * Messages of one session as the API answers them: each with its sender (the author in a group, else `from`) by
 * phone number and by LID, as the identity store pairs them now, so a pairing learnt after a message was stored
 * shows when it is read. One read per distinct sender of the page.
 */
export async function messageViews(
  identities: Pick<IdentityStore, 'aliasesOf'>,
  sessionId: string,
  messages: readonly Message[],
): Promise<MessageView[]> {
  const people = await lookUpPeople(
    identities,
    sessionId,
    messages.map((message) => message.author ?? message.from),
  );
  return messages.map((message) => ({ ...message, sender: people(message.author ?? message.from) }));
}

/** One message as the API answers it (see `messageViews`). */
export async function messageView(
  identities: Pick<IdentityStore, 'aliasesOf'>,
  message: Message,
): Promise<MessageView> {
  const [view] = await messageViews(identities, message.sessionId, [message]);
  return view ?? { ...message, sender: null };
}
