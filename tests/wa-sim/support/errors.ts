/** Errors the simulator's operations raise, carrying the HTTP status the admin API answers with. */

/** An operation failed for a reason the caller can fix; `status` is the admin API's answer. */
export class SimError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 410 | 422 | 504,
    message: string,
  ) {
    super(message);
    this.name = 'SimError';
  }
}

/** 404: an unknown account, contact, group or pending link. */
export function notFound(message: string): SimError {
  return new SimError(404, message);
}

/** 400: input that cannot work (a QR for another device, a wrong pairing code…). */
export function badRequest(message: string): SimError {
  return new SimError(400, message);
}

/** 409: the request clashes with the current state (a number already used by a contact…). */
export function conflict(message: string): SimError {
  return new SimError(409, message);
}

/** 403: the actor may not do this (a group change by a non-member or a non-admin). */
export function forbidden(message: string): SimError {
  return new SimError(403, message);
}
