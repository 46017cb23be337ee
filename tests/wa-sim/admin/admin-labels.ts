/**
 * Admin routes for an account's labels as its phone shows them (name, colour, deleted, the chats each tags) and the
 * phone editing one (written to app state, `accounts/label-actions.ts`). Labels go on chats and come off them through
 * the chat route (`admin-chats.ts`, `labels`).
 */
import { editedLabel, phoneEditsLabel } from '#tests/wa-sim/accounts/label-actions.js';
import { labelsView, labelView } from '#tests/wa-sim/accounts/label-state.js';
import { badRequest, notFound } from '#tests/wa-sim/support/errors.js';
import { accountOf } from './admin-accounts.js';
import { LabelEditBody, LabelId, parseBody, parseParam, type Route } from './admin-schemas.js';

/** Routes under `/admin/accounts/{phone}/labels`. */
export const labelRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/admin\/accounts\/(\d+)\/labels$/,
    handle: (sim, [phone]) => {
      const account = accountOf(sim, phone);
      return { body: { phone: account.phone, ...labelsView(account) } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/accounts\/(\d+)\/labels\/([^/]+)$/,
    handle: (sim, [phone, raw]) => {
      const account = accountOf(sim, phone);
      const id = parseParam(LabelId, 'labelId', raw);
      const label = account.labels.get(id);
      if (!label) throw notFound(`the phone of ${account.phone} has no label ${id}`);
      return { body: labelView(account, label) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/labels\/([^/]+)$/,
    handle: (sim, [phone, raw], body) => {
      const account = accountOf(sim, phone);
      const id = parseParam(LabelId, 'labelId', raw);
      const edit = parseBody(LabelEditBody, body);
      if (edit.deleted && !account.labels.has(id))
        throw notFound(`the phone of ${account.phone} has no label ${id}`);
      const edited = editedLabel(account, id, edit);
      if (!edited)
        throw badRequest(`name: the phone of ${account.phone} has no label ${id}; a new label needs a name`);
      const { label, written, notified } = phoneEditsLabel(sim, account, edited);
      return { body: { phone: account.phone, label: labelView(account, label), written, notified } };
    },
  },
];
