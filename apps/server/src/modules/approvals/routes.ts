import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { approvalRouteSpecs as spec } from '@paydesk/contracts/routes/approvals';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { currentCaller, currentUser } from '../../plugins/auth';
import { approve, countPending, getApproval, listApprovals, listPolicies, reject, setPolicy } from './service';

/** Two-person control: policies and the requests queue. Permissions depend on each action: checked in the service. */
export const approvalsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/approval-policies'], async (req) => ({
      data: await listPolicies(ctx, currentUser(req)),
    }));
    serve(app, spec['PUT /api/v1/approval-policies/:action'], async (req) => ({
      data: await setPolicy(ctx, currentCaller(req), req.params.action, req.body),
    }));
    serve(app, spec['GET /api/v1/approvals'], async (req) => listApprovals(ctx, currentUser(req), req.query));
    serve(app, spec['GET /api/v1/approvals/count'], async (req) => ({
      data: await countPending(ctx, currentUser(req)),
    }));
    serve(app, spec['GET /api/v1/approvals/:id'], async (req) => ({
      data: await getApproval(ctx, currentUser(req), req.params.id),
    }));
    serve(app, spec['POST /api/v1/approvals/:id/approve'], async (req) => ({
      data: await approve(ctx, currentCaller(req), req.params.id, req.body.reason),
    }));
    serve(app, spec['POST /api/v1/approvals/:id/reject'], async (req) => ({
      data: await reject(ctx, currentCaller(req), req.params.id, req.body.reason),
    }));
  };
