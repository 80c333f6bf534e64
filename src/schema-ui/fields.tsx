/**
 * Display components used by the kind map for what react-admin has no field for: translated enum
 * labels (as text or chip), hashes, images (one, or the up-to-9 gallery with the main picture first), a
 * QR code, traceability steps and nested sections. Each reads the record from react-admin's context.
 */
import { useEffect, useState, type ReactNode } from 'react';
import {
  Box,
  Chip,
  IconButton,
  Stack,
  Step,
  StepContent,
  StepLabel,
  Stepper,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import ImageNotSupported from '@mui/icons-material/ImageNotSupported';
import QRCode from 'qrcode';
import { Labeled, useNotify, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import type { PropertySchema, ResourceSchema } from '../../kernel/dialect/schemaRegistry';
import { deref, enumLabelKey } from '../../kernel/dialect/kinds';
import { FileLink } from './files';

/** Reads a dotted path from a record. */
export function getPath(record: unknown, path: string): unknown {
  return path.split('.').reduce<any>((v, k) => (v == null ? undefined : v[k]), record);
}

export interface DisplayProps {
  source: string;
  prop: PropertySchema;
  schema?: ResourceSchema;
  label?: string;
  inList?: boolean;
  sortable?: boolean;
}

/** The translated label of an enum value (x-enumLabels), or the raw value when it has none. */
export function useEnumLabel(source: string) {
  const translate = useTranslate();
  const resource = useResourceContext();
  return (value: unknown) => translate(enumLabelKey(resource ?? '', source, value), { _: String(value) });
}

export function EnumField({ source, chip }: DisplayProps & { chip?: boolean }) {
  const record = useRecordContext();
  const label = useEnumLabel(source);
  const value = getPath(record, source);
  if (value == null || value === '') return null;
  if (!chip) return <Typography variant="body2">{label(value)}</Typography>;
  const color =
    value === 2 || (value === 1 && source !== 'status') ? 'success' : value === 1 ? 'warning' : 'default';
  return (
    <Chip size="small" label={label(value)} color={color} variant={value === 0 ? 'outlined' : 'filled'} />
  );
}

export function HashField({ source, inList }: DisplayProps) {
  const record = useRecordContext();
  const notify = useNotify();
  const translate = useTranslate();
  const value = getPath(record, source);
  if (typeof value !== 'string' || !value) return null;
  const shown = inList && value.length > 16 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;
  return (
    <Stack
      direction="row"
      alignItems="center"
      spacing={0.5}
      sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
    >
      <Tooltip title={value}>
        <Typography variant="body2" sx={{ fontFamily: 'inherit' }}>
          {shown}
        </Typography>
      </Tooltip>
      <IconButton
        size="small"
        aria-label={translate('baas.action.copy')}
        onClick={(e) => {
          e.stopPropagation();
          void navigator.clipboard?.writeText(value).then(() => notify('baas.message.copied'));
        }}
      >
        <ContentCopy fontSize="inherit" />
      </IconButton>
    </Stack>
  );
}

/**
 * An image URL as the console loads it: every picture comes from the console's own origin. A remote
 * picture (e.g. the Tate records' `http://www.tate.org.uk/...`) goes through the server's image cache,
 * `/image-cache/?url=<url>` (server/routes/image-cache), which answers it from `DATA_DIR` (fetched once,
 * for hosts in IMAGE_CACHE_HOSTS) or a placeholder picture, never a failing request; `thumb` (CSS px) asks
 * for a square thumbnail twice that wide (high-density screens), also for uploaded pictures (`/uploads/`).
 * Other URLs (data:, blob:, relative) are kept.
 */
export function displayImageUrl(src: string, thumb?: number): string {
  const remote = /^https?:\/\//i.test(src);
  if (!remote && !(thumb && src.startsWith('/uploads/'))) return src;
  return `/image-cache/?url=${encodeURIComponent(src)}${thumb ? `&w=${Math.ceil(thumb * 2)}` : ''}`;
}

/**
 * One image with a placeholder when it is missing or fails to load. `size` in CSS pixels; `thumb` loads a
 * thumbnail of that size from the image cache instead of the full picture (lists).
 */
export function Thumb({
  src,
  size,
  alt,
  thumb,
}: {
  src?: string | null;
  size: number;
  alt: string;
  thumb?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [src]);
  if (!src || failed)
    return (
      <Box
        sx={{
          width: size,
          height: size,
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
        title={alt}
      >
        <ImageNotSupported fontSize="small" color="disabled" />
      </Box>
    );
  return (
    <Box
      component="img"
      src={displayImageUrl(src, thumb ? size : undefined)}
      alt={alt}
      loading="lazy"
      onError={() => setFailed(true)}
      sx={{ width: size, height: size, objectFit: 'cover', borderRadius: 1, display: 'block' }}
    />
  );
}

export function ImageField({ source, inList }: DisplayProps) {
  const record = useRecordContext();
  const value = getPath(record, source);
  return (
    <Thumb
      src={typeof value === 'string' ? value : null}
      size={inList ? 40 : 120}
      alt={source}
      thumb={inList}
    />
  );
}

export function ImagesField({ source, inList }: DisplayProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = getPath(record, source);
  const urls = Array.isArray(value) ? (value as string[]) : [];
  if (inList) return <Thumb src={urls[0]} size={48} alt={translate('baas.images.main')} thumb />;
  if (urls.length === 0) return <Typography variant="body2">{translate('baas.images.none')}</Typography>;
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
      {urls.map((u, i) => (
        <Box key={`${i}-${u}`} sx={{ position: 'relative' }}>
          <a href={displayImageUrl(u)} target="_blank" rel="noreferrer">
            <Thumb src={u} size={120} alt={`${i + 1}`} thumb />
          </a>
          {i === 0 && (
            <Chip
              size="small"
              color="primary"
              label={translate('baas.images.main')}
              sx={{ position: 'absolute', top: 4, left: 4 }}
            />
          )}
        </Box>
      ))}
    </Stack>
  );
}

export function QrCodeField({ source }: DisplayProps) {
  const record = useRecordContext();
  const value = getPath(record, source);
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let live = true;
    if (typeof value === 'string' && value)
      void QRCode.toDataURL(value, { margin: 1, width: 128 }).then((u) => live && setUrl(u));
    else setUrl(undefined);
    return () => {
      live = false;
    };
  }, [value]);
  if (typeof value !== 'string' || !value) return null;
  return (
    <Stack direction="row" spacing={2} alignItems="center">
      {url && <img src={url} width={128} height={128} alt={value} />}
      <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
        {value}
      </Typography>
    </Stack>
  );
}

/** True when `p` (after its `$ref`) holds an uploaded file (`x-upload` / widget `file`). */
function isFileProp(schema: ResourceSchema | undefined, p: PropertySchema | undefined): boolean {
  if (!p) return false;
  const d = schema ? deref(schema, p) : p;
  return !!d['x-upload'] || d['x-ui']?.widget === 'file';
}

/** Traceability steps as a vertical stepper: step label, then each other item field (attachments as links). */
export function StepsField({ source, prop, schema, children }: DisplayProps & { children?: ReactNode }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const label = useEnumLabel(`${source}.step`);
  const items = getPath(record, source);
  if (!Array.isArray(items) || items.length === 0) return <Typography variant="body2">—</Typography>;
  const keys = Object.keys(prop.items?.properties ?? {}).filter((k) => k !== 'step');
  return (
    <Stepper orientation="vertical" activeStep={items.length}>
      {items.map((item: Record<string, unknown>, i) => (
        <Step key={i} completed expanded>
          <StepLabel>{item.step ? label(item.step) : `#${i + 1}`}</StepLabel>
          <StepContent>
            {keys
              .filter((k) => item[k] != null && item[k] !== '')
              .map((k) => (
                <Typography key={k} variant="body2" component="div">
                  {translate(`resources.${resource}.fields.${source}.${k}`, { _: k })}:{' '}
                  {isFileProp(schema, prop.items?.properties?.[k]) && typeof item[k] === 'string' ? (
                    <FileLink url={item[k]} />
                  ) : (
                    String(item[k])
                  )}
                </Typography>
              ))}
          </StepContent>
        </Step>
      ))}
      {children}
    </Stepper>
  );
}

/** A labeled block for nested fields (a section object shown inside another section). */
export function LabeledBlock({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Labeled label={label}>
      <Stack spacing={1}>{children}</Stack>
    </Labeled>
  );
}
