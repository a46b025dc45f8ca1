import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN, PASSWORD_RULE_TEXT, type Me } from '@paydesk/contracts/auth';
import { CurrentUserContext } from '../../../lib/session';
import ChangePasswordPage from './change-password-page';

const me = (mustChangePassword: boolean): Me => ({
  id: '00000000-0000-4000-8000-000000000001',
  username: 'malika',
  permissions: [],
  personal: { firstName: 'Malika', lastName: 'Rahimova' },
  merchantId: null,
  scope: 'platform',
  role: { id: 1, name: 'Platform admin' },
  mustChangePassword,
  mustSetUpTwoFactor: false,
  twoFactor: { enabled: false, required: false },
});

const render = (forced: boolean) =>
  renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <CurrentUserContext value={me(forced)}>
            <ChangePasswordPage />
          </CurrentUserContext>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );

describe('Change password says the password rule before Submit', () => {
  it.each([
    ['own change', false],
    ['first sign-in with a one-time password', true],
  ])('%s: the new password field is described by the rule', (_, forced) => {
    const html = render(forced);
    expect(PASSWORD_RULE_TEXT).toContain(`At least ${PASSWORD_MIN} characters`);
    // the description element, and the input pointing at it (what a screen reader reads with the field)
    const description = new RegExp(`<p[^>]*id="([^"]+)"[^>]*>${PASSWORD_RULE_TEXT.replace(/[.;]/g, '\\$&')}</p>`);
    const id = description.exec(html)?.[1];
    expect(id, 'rule shown as a description').toBeDefined();
    expect(html).toMatch(new RegExp(`<input[^>]*aria-describedby="[^"]*${id}[^"]*"[^>]*name="newPassword"`));
  });
});
