/** Allocation of the identifiers shared by accounts and contacts: phone numbers stay unique, LIDs are random. */
import { randomInt } from 'node:crypto';
import { conflict } from '#tests/wa-sim/support/errors.js';

/** Hands out LID users and keeps phone numbers and LIDs from clashing across accounts and contacts. */
export class IdAllocator {
  private readonly taken = new Set<string>();

  /** True when `user` is already a phone number or a LID. */
  isTaken(user: string): boolean {
    return this.taken.has(user);
  }

  /** Records a phone number as used; throws when it already belongs to someone. */
  claimPhone(phone: string): void {
    if (this.taken.has(phone)) throw conflict(`number ${phone} is already in use`);
    this.taken.add(phone);
  }

  /** A fresh 15-digit LID user. */
  allocateLid(): string {
    for (;;) {
      const lid = `${randomInt(1, 10)}${String(randomInt(0, 2 ** 47))
        .padStart(14, '0')
        .slice(0, 14)}`;
      if (!this.taken.has(lid)) {
        this.taken.add(lid);
        return lid;
      }
    }
  }
}
