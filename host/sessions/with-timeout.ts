/** Races a promise against a deadline; the loser keeps running (callers decide what to do with it). */
export async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ done: true; value: T } | { done: false }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ done: true as const, value })), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
