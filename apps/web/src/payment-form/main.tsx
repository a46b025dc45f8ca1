import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Placeholder: the payment form is built in its own entry and must import nothing from the back-office.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main>
      <h1>Payment</h1>
    </main>
  </StrictMode>,
);
