import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

/**
 * Import boundaries are lint errors (docs/architecture.md, "Layout and boundaries"): each fixture below is a file at a real place in the
 * tree with one forbidden import, and `npm run lint`'s own configuration must reject it. Relative paths
 * count as much as package names. The last fixtures are allowed imports that must stay allowed.
 */
const root = path.join(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => /no-restricted-(paths|imports|syntax)/.test(m.ruleId ?? ''));
}

const FORBIDDEN: [what: string, file: string, code: string][] = [
  [
    'a feature imports another feature by a relative path',
    'apps/web/src/features/invoices/components/fixture.tsx',
    "import { useAccounts } from '../../accounts/api/accounts';\nexport const x = useAccounts;\n",
  ],
  [
    'a feature imports the app shell',
    'apps/web/src/features/invoices/components/fixture.tsx',
    "import { router } from '../../../app/router';\nexport const x = router;\n",
  ],
  [
    'the web imports the server',
    'apps/web/src/features/invoices/components/fixture.tsx',
    "import { buildApp } from '../../../../../server/src/app';\nexport const x = buildApp;\n",
  ],
  [
    'shared web code (lib) imports the server',
    'apps/web/src/lib/fixture.ts',
    "import { buildApp } from '../../../server/src/app';\nexport const x = buildApp;\n",
  ],
  [
    'shared web code (components) imports a feature',
    'apps/web/src/components/fixture.tsx',
    "import { useAccounts } from '../features/accounts/api/accounts';\nexport const x = useAccounts;\n",
  ],
  [
    'the payment form imports the back-office toast (Mantine) by a relative path',
    'apps/web/src/payment-form/fixture.tsx',
    "import { toast } from '../components/toast';\nexport const x = toast;\n",
  ],
  [
    'the payment form imports Mantine',
    'apps/web/src/payment-form/fixture.tsx',
    "import { Button } from '@mantine/core';\nexport const x = Button;\n",
  ],
  [
    'the payment form takes code (zod) from a contracts module with schemas',
    'apps/web/src/payment-form/fixture.ts',
    "import { formCredentialBody } from '@paydesk/contracts/payment-form';\nexport const x = formCredentialBody;\n",
  ],
  [
    'the server imports the web',
    'apps/server/src/lib/fixture.ts',
    "import { apiRequest } from '../../../web/src/lib/api';\nexport const x = apiRequest;\n",
  ],
  [
    "a server module reaches into another module's routes",
    'apps/server/src/modules/reports/fixture.ts',
    "import { invoiceRoutes } from '../invoices/routes';\nexport const x = invoiceRoutes;\n",
  ],
  [
    "a server module reaches into another module's internals",
    'apps/server/src/modules/reports/fixture.ts',
    "import { listSql } from '../invoices/queries';\nexport const x = listSql;\n",
  ],
  [
    'a route queries the database itself',
    'apps/server/src/modules/reports/routes.ts',
    "import { invoices } from '../../db/schema';\nexport const x = invoices;\n",
  ],
  [
    'a route reaches the database through the context',
    'apps/server/src/modules/reports/routes.ts',
    'export const x = (ctx: { db: { execute(): void } }) => ctx.db.execute();\n',
  ],
  [
    'contracts import an app',
    'packages/contracts/src/fixture.ts',
    "import { apiRequest } from '../../../apps/web/src/lib/api';\nexport const x = apiRequest;\n",
  ],
];

const ALLOWED: [what: string, file: string, code: string][] = [
  [
    'a feature imports shared code',
    'apps/web/src/features/invoices/components/fixture.tsx',
    "import { toast } from '../../../components/toast';\nexport const x = toast;\n",
  ],
  [
    'the payment form takes types from a contracts module with schemas',
    'apps/web/src/payment-form/fixture.ts',
    "import type { FormInit } from '@paydesk/contracts/payment-form';\nexport type X = FormInit;\n",
  ],
  [
    'the payment form takes code from a zod-free contracts module',
    'apps/web/src/payment-form/fixture.ts',
    "import { formatMoney } from '@paydesk/contracts/money';\nexport const x = formatMoney;\n",
  ],
  [
    "a server module uses another module's service",
    'apps/server/src/modules/reports/fixture.ts',
    "import { recordAudit } from '../audit/service';\nexport const x = recordAudit;\n",
  ],
];

describe('import boundaries are lint errors', () => {
  for (const [what, file, code] of FORBIDDEN) {
    it(`rejects: ${what}`, async () => {
      const messages = await lint(file, code);
      expect(messages.length, `${file}\n${code}`).toBeGreaterThan(0);
      expect(messages[0]!.severity).toBe(2);
    });
  }
  for (const [what, file, code] of ALLOWED) {
    it(`allows: ${what}`, async () => {
      expect(await lint(file, code)).toEqual([]);
    });
  }
});

/**
 * An import cycle is a lint error (import/no-cycle): a fixture takes the place of a real file that another one
 * imports, and imports that one back. A type-only import is erased at build time and does not count.
 */
describe('import cycles are lint errors', () => {
  const cycles = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result!.messages.filter((m) => m.ruleId === 'import/no-cycle');
  };
  const terminalInfo = 'apps/server/src/modules/merchant-api/terminal-info.ts';

  it('rejects a module that imports back the one importing it', async () => {
    const messages = await cycles(
      terminalInfo,
      "import { createInvoice } from './service';\nexport const x = createInvoice;\n",
    );
    expect(messages.map((m) => m.severity)).toEqual([2]);
  });

  it('rejects a longer cycle, through a third module', async () => {
    // terminal-info.ts → routes.ts → service.ts → terminal-info.ts
    const messages = await cycles(
      terminalInfo,
      "import { merchantApiPlugin } from './routes';\nexport const x = merchantApiPlugin;\n",
    );
    expect(messages.map((m) => m.severity)).toEqual([2]);
  });

  it('allows a type-only import back', async () => {
    expect(
      await cycles(
        terminalInfo,
        "import type { StaleCredentials } from './service';\nexport type X = StaleCredentials;\n",
      ),
    ).toEqual([]);
  });
});
