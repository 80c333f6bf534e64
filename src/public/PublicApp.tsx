/**
 * The public pages, rendered before (instead of) the console when the hash is one of theirs, so they
 * need no login and never trigger the console's login redirect (src/main.tsx):
 * - `#/verify/:kind/:id` (kind `author` | `artwork`): the record's public fields, and the in-browser
 *   verification of `GET /baas-api/public/record` (common/ledger/publicVerify.ts, Web Crypto): record
 *   digest, Merkle proof, block header, checkpoint signature against the published key, no newer
 *   version. "Verified, witnessed by k of n", "Not verified" (naming the failed steps with recomputed and
 *   received values, the server's halt of the channel with its reason, or the missing witness quorum
 *   where a policy is set), or "Not published"; and, as
 *   every visitor is a witness, a red alarm with downloadable evidence when the log's latest checkpoint
 *   does not extend the one this browser saw before (src/public/witnessCheck.ts). A button downloads the
 *   record's offline proof (C2SP tlog-proof).
 * - `#/certificate/:id`: an artwork's printable certificate (print, or save as PDF from the print
 *   dialog; print CSS hides the buttons) with a QR code (`qrcode`) to the artwork's verification page.
 * English and Chinese (src/public/i18n.ts), switchable on the page.
 */
import { useEffect, useMemo, useState } from 'react';
import QRCode from 'qrcode';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Container,
  CssBaseline,
  Divider,
  Link,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  ThemeProvider,
  Typography,
  createTheme,
} from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Cancel from '@mui/icons-material/Cancel';
import Cookies from 'js-cookie';
import {
  verifyPublicRecord,
  checkpointInfo,
  type PublicCheck,
  type PublicRecord,
} from '../../common/ledger/publicVerify';
import { pageVerdict } from '../../common/ledger/visitorWitness';
import { currentLocale, LANGUAGE_COOKIE } from '../i18n';
import { downloadEvidence, useWitnessCheck, type WitnessCheck } from './witnessCheck';
import { pt, type PublicKey, type PublicLocale } from './i18n';

import { publicRoute, verifyUrl, type PublicRoute } from './route';
import { prefersReducedMotion, stillMotion } from '../layout/motion';

export { publicRoute, verifyUrl, type PublicRoute };

type Load =
  | { phase: 'loading' }
  | { phase: 'notPublished' }
  | { phase: 'error'; message: string }
  | { phase: 'done'; answer: PublicRecord; check: PublicCheck };

function useVerifiedRecord(kind: 'author' | 'artwork', id: number): Load {
  const [state, setState] = useState<Load>({ phase: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ phase: 'loading' });
    (async () => {
      const res = await fetch(`/baas-api/public/record?kind=${kind}&id=${id}`);
      const body = (await res.json()) as { code: number; msg: string; data: any };
      if (res.status === 404 && body.data?.published === false) return { phase: 'notPublished' } as const;
      if (body.code !== 0) return { phase: 'error', message: body.msg } as const;
      const answer = body.data as PublicRecord;
      return { phase: 'done', answer, check: await verifyPublicRecord(answer) } as const;
    })().then(
      (s) => live && setState(s),
      (err: Error) => live && setState({ phase: 'error', message: err.message }),
    );
    return () => {
      live = false;
    };
  }, [kind, id]);
  return state;
}

/** The page's theme; still when the system asks for reduced motion (src/layout/motion.ts). */
const theme = createTheme({
  palette: { primary: { main: '#1f4e79' } },
  ...(prefersReducedMotion() ? stillMotion() : {}),
});

export default function PublicApp({ route }: { route: PublicRoute }) {
  const [locale, setLocale] = useState<PublicLocale>(currentLocale());
  const t = (key: PublicKey, params?: Record<string, string | number>) => pt(locale, key, params);
  const toggle = () => {
    const next = locale === 'en' ? 'zh' : 'en';
    Cookies.set(LANGUAGE_COOKIE, next, { path: '/', sameSite: 'lax', expires: 365 });
    setLocale(next);
  };
  useEffect(() => {
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
  }, [locale]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ minHeight: '100vh', bgcolor: '#f4f6f8', py: { xs: 1, sm: 3 } }}>
        <Container maxWidth="md" sx={{ px: { xs: 1, sm: 2 } }}>
          <Stack
            direction="row"
            justifyContent="space-between"
            alignItems="center"
            sx={{ mb: 2, '@media print': { display: 'none' } }}
          >
            <Typography variant="h5" component="h1">
              {route.page === 'verify' ? t('title') : t('certificate')}
            </Typography>
            <Button size="small" onClick={toggle} data-testid="public-language">
              {t('language')}
            </Button>
          </Stack>
          {route.page === 'verify' ? (
            <VerifyPage route={route} t={t} />
          ) : (
            <CertificatePage id={route.id} t={t} />
          )}
        </Container>
      </Box>
    </ThemeProvider>
  );
}

type T = (key: PublicKey, params?: Record<string, string | number>) => string;

function Status({ load, wc, t }: { load: Load; wc?: WitnessCheck; t: T }) {
  if (load.phase === 'loading') return <Alert severity="info">{t('checking')}</Alert>;
  if (load.phase === 'notPublished')
    return (
      <Alert severity="warning" data-testid="public-status">
        <AlertTitle>{t('notPublished')}</AlertTitle>
        {t('notPublishedDetail')}
      </Alert>
    );
  if (load.phase === 'error')
    return (
      <Alert severity="error" data-testid="public-status">
        {t('error', { message: load.message })}
      </Alert>
    );
  const v = pageVerdict(load.check.ok, wc?.quorum, wc?.policyRequired ?? false, wc?.visit);
  // The server halted the record's channel (a fork or rollback of its log): "Not verified", the reason.
  const halted = load.check.halted;
  const witnessed = v.witnessed ? t('witnessedBy', { k: v.witnessed.k, n: v.witnessed.n }) : '';
  return (
    <Stack spacing={1}>
      {v.ok ? (
        <Alert severity="success" data-testid="public-status" icon={<CheckCircle />}>
          <AlertTitle sx={{ mb: 0 }}>
            {t('verified')}
            {witnessed && `, ${witnessed}`}
          </AlertTitle>
        </Alert>
      ) : (
        <Alert severity="error" data-testid="public-status" icon={<Cancel />}>
          <AlertTitle sx={{ mb: 0 }}>{t('notVerified')}</AlertTitle>
          {halted && (
            <Box data-testid="public-halted">
              {t(
                halted.kind === 'fork'
                  ? 'haltedFork'
                  : halted.kind === 'key'
                    ? 'haltedKey'
                    : 'haltedRollback',
                { reason: halted.reason },
              )}
            </Box>
          )}
          {!halted && v.reasons.includes('quorum') && (
            <Box data-testid="public-quorum">
              {v.witnessed ? t('quorumMissing', { k: v.witnessed.k, n: v.witnessed.n }) : t('quorumUnknown')}
            </Box>
          )}
        </Alert>
      )}
      {(wc?.visit?.kind === 'fork' || wc?.visit?.kind === 'rollback') && (
        <Alert
          severity="error"
          variant="filled"
          data-testid="public-fork"
          action={
            <Button color="inherit" size="small" onClick={() => downloadEvidence(wc.visit!)}>
              {t('downloadEvidence')}
            </Button>
          }
        >
          <AlertTitle>{t(wc.visit.kind === 'fork' ? 'forkTitle' : 'rollbackTitle')}</AlertTitle>
          {t('forkDetail')} {wc.visit.message}
        </Alert>
      )}
    </Stack>
  );
}

function Field({ label, value }: { label: string; value: unknown }) {
  const text = value === null || value === undefined || value === '' ? '—' : String(value);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body1" sx={{ overflowWrap: 'anywhere' }}>
        {text}
      </Typography>
    </Box>
  );
}

/** The record's public fields: name, author, category, images, certificate number. */
function RecordFields({ answer, t }: { answer: PublicRecord; t: T }) {
  const r = answer.record as Record<string, any>;
  if (answer.kind === 'author')
    return (
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {r.portrait && (
          <Box
            component="img"
            src={r.portrait}
            alt=""
            sx={{ width: 140, height: 140, objectFit: 'cover', borderRadius: 1 }}
          />
        )}
        <Stack spacing={1} sx={{ minWidth: 0 }}>
          <Chip label={t('author')} size="small" sx={{ alignSelf: 'flex-start' }} />
          <Field label={t('name')} value={r.authorName} />
          <Field label={t('introduction')} value={r.introduction} />
        </Stack>
      </Stack>
    );
  const images: string[] = Array.isArray(r.images) ? r.images : [];
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      {images[0] && (
        <Box
          component="img"
          src={images[0]}
          alt=""
          sx={{
            width: { xs: '100%', sm: 220 },
            maxHeight: 260,
            objectFit: 'contain',
            bgcolor: '#eee',
            borderRadius: 1,
          }}
        />
      )}
      <Stack spacing={1} sx={{ minWidth: 0 }}>
        <Chip label={t('artwork')} size="small" sx={{ alignSelf: 'flex-start' }} />
        <Field label={t('name')} value={r.artWorkName} />
        <Field label={t('author')} value={answer.display.authorName} />
        <Field label={t('category')} value={r.classify} />
        <Field label={t('texture')} value={r.texture} />
        <Field label={t('certificateNo')} value={r.certificateInfo?.certificateNo} />
        {images.length > 1 && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            {images.slice(1).map((src) => (
              <Box
                key={src}
                component="img"
                src={src}
                alt=""
                sx={{ width: 56, height: 56, objectFit: 'cover', borderRadius: 0.5 }}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </Stack>
  );
}

function ChainFacts({ answer, check, t }: { answer: PublicRecord; check: PublicCheck; t: T }) {
  const cp = answer.checkpoint ? checkpointInfo(answer.checkpoint.note) : undefined;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>
      <Field label={t('version')} value={check.version} />
      <Field label={t('block')} value={`${check.blockNumber} · ${t('channel')} ${answer.proof.channel}`} />
      <Field label={t('txTime')} value={check.txTime} />
      <Field label={t('checkpoint')} value={cp ? `${cp.size}${cp.time ? ` · ${cp.time}` : ''}` : null} />
      <Field label={t('txId')} value={answer.proof.tx.txId} />
      <Field label={t('fingerprint')} value={answer.key.fingerprint} />
    </Box>
  );
}

function Steps({ check, t }: { check: PublicCheck; t: T }) {
  return (
    <List dense data-testid="public-steps">
      {check.steps.map((s) => (
        <ListItem key={s.step} data-step={s.step} data-ok={s.ok ? 'true' : 'false'} alignItems="flex-start">
          <ListItemIcon sx={{ minWidth: 32 }}>
            {s.ok ? (
              <CheckCircle color="success" fontSize="small" />
            ) : (
              <Cancel color="error" fontSize="small" />
            )}
          </ListItemIcon>
          <ListItemText
            primary={t(`step.${s.step}` as PublicKey)}
            secondary={
              s.ok ? undefined : (
                <Box component="span" sx={{ overflowWrap: 'anywhere', display: 'block' }} title={s.message}>
                  {t(`fail.${s.step}` as PublicKey)}
                  {s.expected !== undefined && (
                    <Box component="span" sx={{ display: 'block', fontFamily: 'monospace', fontSize: 12 }}>
                      {t('expected')}: {s.expected}
                      <br />
                      {t('found')}: {s.found}
                    </Box>
                  )}
                </Box>
              )
            }
          />
        </ListItem>
      ))}
    </List>
  );
}

/** The witness checks of a loaded record (src/public/witnessCheck.ts). */
function useRecordWitnesses(load: Load): WitnessCheck | undefined {
  const done = load.phase === 'done' ? load.answer : undefined;
  return useWitnessCheck(done?.proof.channel, done?.checkpoint?.note, done?.key);
}

function ProofFileLink({ kind, id, t }: { kind: 'author' | 'artwork'; id: number; t: T }) {
  return (
    <Button
      size="small"
      href={`/baas-api/public/proof-file?kind=${kind}&id=${id}`}
      download={`${kind}-${id}.tlog-proof`}
      data-testid="public-proof-file"
      sx={{ '@media print': { display: 'none' } }}
    >
      {t('downloadProof')}
    </Button>
  );
}

function VerifyPage({ route, t }: { route: Extract<PublicRoute, { page: 'verify' }>; t: T }) {
  const load = useVerifiedRecord(route.kind, route.id);
  const wc = useRecordWitnesses(load);
  return (
    <Stack spacing={2}>
      <Status load={load} wc={wc} t={t} />
      {load.phase === 'done' && (
        <>
          <Card variant="outlined">
            <CardContent>
              <RecordFields answer={load.answer} t={t} />
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardContent>
              <ChainFacts answer={load.answer} check={load.check} t={t} />
              <Divider sx={{ my: 2 }} />
              <Typography variant="subtitle1">{t('stepsTitle')}</Typography>
              <Steps check={load.check} t={t} />
              <ProofFileLink kind={route.kind} id={route.id} t={t} />
            </CardContent>
          </Card>
        </>
      )}
    </Stack>
  );
}

function CertificatePage({ id, t }: { id: number; t: T }) {
  const load = useVerifiedRecord('artwork', id);
  const wc = useRecordWitnesses(load);
  const url = useMemo(() => verifyUrl('artwork', id), [id]);
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    QRCode.toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 240 }).then(setQr, () =>
      setQr(null),
    );
  }, [url]);
  if (load.phase !== 'done') return <Status load={load} t={t} />;
  const r = load.answer.record as Record<string, any>;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ '@media print': { display: 'none' } }}>
        <Button variant="contained" onClick={() => window.print()} data-testid="certificate-print">
          {t('print')}
        </Button>
        <Button href={url}>{t('verifyLink')}</Button>
        <ProofFileLink kind="artwork" id={id} t={t} />
      </Stack>
      <Card
        variant="outlined"
        data-testid="certificate"
        sx={{
          border: '3px double #1f4e79',
          '@media print': { border: '3px double #1f4e79', boxShadow: 'none' },
        }}
      >
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <Typography
            variant="h4"
            align="center"
            sx={{ fontFamily: 'serif', color: '#1f4e79', fontSize: { xs: 24, sm: 34 } }}
          >
            {t('certificate')}
          </Typography>
          <Typography align="center" color="text.secondary" sx={{ mb: 3 }}>
            {t('certificateNo')}: {r.certificateInfo?.certificateNo || '—'}
          </Typography>
          <RecordFields answer={load.answer} t={t} />
          <Divider sx={{ my: 3 }} />
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={3}
            alignItems={{ xs: 'center', sm: 'flex-start' }}
          >
            <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
              <ChainFacts answer={load.answer} check={load.check} t={t} />
            </Box>
            <Stack alignItems="center" spacing={0.5}>
              {qr && (
                <Box
                  component="img"
                  src={qr}
                  alt={url}
                  data-testid="certificate-qr"
                  sx={{ width: 160, height: 160 }}
                />
              )}
              <Typography variant="caption">{t('scan')}</Typography>
              <Link
                href={url}
                variant="caption"
                sx={{ overflowWrap: 'anywhere', maxWidth: 200, textAlign: 'center' }}
              >
                {url}
              </Link>
            </Stack>
          </Stack>
          <Box sx={{ mt: 2 }}>
            <Status load={load} wc={wc} t={t} />
          </Box>
        </CardContent>
      </Card>
    </Stack>
  );
}
