import type {
  AccountLimitBody,
  ChangeInvoiceAmountBody,
  ChangeInvoiceStatusBody,
  CredentialCreateBody,
  SettlementBody,
} from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { invalidState } from '../../lib/errors';
import type { SessionUser } from '../../plugins/auth';
import { addCredential, removeCredential, setLimit, updateCredential } from '../accounts/service';
import { staffActor } from '../audit/service';
import { operatorActor } from '../engine/service';
import { resolveIncoming } from '../exceptions/service';
import { changeInvoiceAmount, changeInvoiceStatus } from '../invoices/service';
import { replacePublicKey } from '../merchants/service';
import { createSettlement } from '../settlements/service';

/** A stored request, as the applier needs it. */
type Approved = {
  id: string;
  action: string;
  payload: Record<string, unknown>;
  before: unknown;
  maker: string;
};

/**
 * Carries an approved request out: the covered action's own service, called as the approver (who holds the same
 * permission) with the request's grant, so that nothing is held again and every rule is checked against the state
 * now. The reason the history records names both people.
 */
export async function applyApproved(ctx: AppContext, caller: { user: SessionUser; ip: string }, r: Approved) {
  const grant = { requestId: r.id, before: r.before };
  const audit = staffActor(caller.user, caller.ip);
  const reasonOf = (asked: string) => `${asked} (asked by ${r.maker}, approved by ${caller.user.username})`;
  switch (r.action) {
    case 'invoice.status.change': {
      const p = r.payload as { merchantId: string; body: ChangeInvoiceStatusBody };
      await changeInvoiceStatus(ctx, p.merchantId, { ...p.body, reason: reasonOf(p.body.reason) }, caller, { grant });
      return;
    }
    case 'invoice.amount.change': {
      const p = r.payload as { merchantId: string; body: ChangeInvoiceAmountBody };
      await changeInvoiceAmount(ctx, p.merchantId, { ...p.body, reason: reasonOf(p.body.reason) }, caller, { grant });
      return;
    }
    case 'settlement.create': {
      const p = r.payload as { merchantId: string; body: SettlementBody };
      await createSettlement(
        ctx,
        p.merchantId,
        audit,
        { ...p.body, reason: reasonOf(p.body.reason ?? 'settlement') },
        grant,
      );
      return;
    }
    case 'incoming.resolve': {
      const p = r.payload as
        | { kind: 'match'; incomingId: string; invoiceId: string; reason: string }
        | { kind: 'return'; incomingId: string; reference: string; reason: string };
      await resolveIncoming(
        ctx,
        { ...p, reason: reasonOf(p.reason), actor: operatorActor(caller.user, caller.ip) },
        grant,
      );
      return;
    }
    case 'merchant.key.edit': {
      const p = r.payload as { merchantId: string; clientPublicKey: string };
      await replacePublicKey(ctx, audit, p.merchantId, p.clientPublicKey, grant);
      return;
    }
    case 'people.account.edit': {
      // the request keeps a credential's number encrypted: opened here, for the service to check and store again
      const p = r.payload as
        | { kind: 'limit'; accountId: number; body: AccountLimitBody }
        | { kind: 'add'; body: CredentialCreateBody }
        | { kind: 'update'; credentialId: number; value: string }
        | { kind: 'remove'; credentialId: number };
      const open = (v: string) => ctx.vault.open(ctx.db, 'account.credential', v);
      if (p.kind === 'limit') await setLimit(ctx, audit, p.accountId, p.body, grant);
      else if (p.kind === 'add') await addCredential(ctx, audit, { ...p.body, value: await open(p.body.value) }, grant);
      else if (p.kind === 'update') await updateCredential(ctx, audit, p.credentialId, await open(p.value), grant);
      else await removeCredential(ctx, audit, p.credentialId, grant);
      return;
    }
    default:
      throw invalidState(`Requests for ${r.action} cannot be carried out by this version`);
  }
}
