import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Me } from '@paydesk/contracts/auth';
import type { TerminalDetails } from '@paydesk/contracts';
import { PRESET_ROLES, type PresetRoleCode } from '@paydesk/contracts/permissions';
import { CurrentUserContext } from '../../../lib/session';
import { TerminalSettingsSection } from './terminal-settings-form';

const terminal = (over: Partial<TerminalDetails> = {}): TerminalDetails => ({
  id: '3b47e7ac-0a62-4e1d-ab53-96fd817ef099',
  name: 'UZS Deposit',
  paymentFlow: 'DEPOSIT',
  currency: { code: 'UZS', dimension: 2 },
  isTest: false,
  inTest: false,
  enabled: true,
  callbackUrl: 'https://shop.example.com/callbacks',
  ...over,
});

const userOf = (role: PresetRoleCode): Me => ({
  id: '00000000-0000-4000-8000-000000000001',
  username: role,
  permissions: [...PRESET_ROLES[role].permissions],
  personal: { firstName: 'A', lastName: 'B' },
  merchantId: PRESET_ROLES[role].scope === 'merchant' ? '00000000-0000-4000-8000-000000000002' : null,
  scope: PRESET_ROLES[role].scope,
  role: { id: 1, name: PRESET_ROLES[role].name },
  mustChangePassword: false,
  mustSetUpTwoFactor: false,
  twoFactor: { enabled: false, required: false },
});

function render(role: PresetRoleCode, t: TerminalDetails) {
  return renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <CurrentUserContext value={userOf(role)}>
          <TerminalSettingsSection terminal={t} />
        </CurrentUserContext>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const buttons = (html: string) =>
  [...html.matchAll(/<button[^>]*type="submit"[^>]*>(.*?)<\/button>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

describe('the terminal settings section shows each user what they may change', () => {
  it('a merchant owner: "Callbacks" with the URL and a working Save, no fee', () => {
    // the server leaves the fee out for anyone without terminal.attr.read
    const html = render('merchant_owner', terminal());
    expect(html).toContain('>Callbacks</h2>');
    expect(html).not.toContain('Fee');
    expect(html).toContain('aria-label="Callbacks of UZS Deposit"');
    expect(html).toMatch(/<input[^>]*name="callbackUrl"/);
    expect(html).not.toMatch(/<input[^>]*readonly/i);
    expect(html).not.toContain('name="feePercent"');
    expect(buttons(html)).toEqual(['Save']);
    // a plain primary button, not one that looks switched off
    expect(html).toMatch(/<button[^>]*type="submit"/);
    expect(html).not.toMatch(/<button[^>]*data-variant="light"/);
  });

  it('platform staff with the fee permission: "Fee and callbacks" with both', () => {
    const html = render('platform_admin', terminal({ feeBps: 250, attributes: [] }));
    expect(html).toContain('>Fee and callbacks</h2>');
    expect(html).toMatch(/<input[^>]*name="feePercent"/);
    expect(buttons(html)).toEqual(['Save fee and callback']);
  });

  it('a user who may change neither sees the URL read-only and no Save', () => {
    const html = render('merchant_viewer', terminal());
    expect(html).toContain('>Callbacks</h2>');
    expect(html).toMatch(/<input[^>]*readonly[^>]*name="callbackUrl"/i);
    expect(buttons(html)).toEqual([]);
  });
});
