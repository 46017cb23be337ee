/**
 * Profile pictures within a deadline, answered alike by every engine: the batch (row `contacts.profilePictures`) and
 * the one a contact's answer carries (row `contacts.get`).
 */

/** At most this many ids of one batch are looked up (openwa-facts §1.3); the rest of the list is left out. */
export const PICTURES_MAX_IDS = 50;
/** Each id's lookup gets this long; one that takes longer answers null, as one that failed does. */
export const PICTURE_DEADLINE_MS = 8_000;

/**
 * The pictures of a batch, for every engine alike: the first PICTURES_MAX_IDS distinct ids, looked up side by side
 * with `one`, each answering null when it fails or outlasts PICTURE_DEADLINE_MS.
 */
export async function picturesOf(
  ids: string,
  one: (contactId: string) => Promise<string | null>,
  deadlineMs = PICTURE_DEADLINE_MS,
): Promise<{ pictures: Record<string, string | null> }> {
  const wanted = [...new Set(ids.split(','))].slice(0, PICTURES_MAX_IDS);
  const answers = await Promise.all(
    wanted.map(async (contactId) => [contactId, await pictureWithin(contactId, one, deadlineMs)] as const),
  );
  return { pictures: Object.fromEntries(answers) };
}

/** One contact's picture by `one`, or null when it fails or outlasts `deadlineMs`. */
export async function pictureWithin(
  contactId: string,
  one: (contactId: string) => Promise<string | null>,
  deadlineMs = PICTURE_DEADLINE_MS,
): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  const url = await Promise.race([one(contactId).catch(() => null), deadline]);
  clearTimeout(timer);
  return url;
}
