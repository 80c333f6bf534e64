/** Browser entry: mounts the console into #root once the starting locale's messages are loaded. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App';
import { i18nProvider } from './i18n';

// The starting locale's catalogue first (the zh one is a chunk of its own), so nothing shows in English
// before switching.
void i18nProvider.ready.finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
