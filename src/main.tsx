/**
 * Browser entry: mounts the console into #root, or, while the hash is a public page
 * (`#/verify/:kind/:id`, `#/certificate/:id`; src/public/PublicApp.tsx), that page instead: it is
 * rendered before `<Admin>` mounts, so it needs no login and never triggers the login redirect.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App';
import PublicApp, { publicRoute } from './public/PublicApp';

function Root() {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  const route = publicRoute(hash);
  return route ? <PublicApp route={route} /> : <App />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
