/**
 * Uploaded-file fields of the schema engine, for every property declaring `x-upload` (kernel/dialect/keywords.ts):
 * - `FileUploadInput`: the current file (a thumbnail for an image, else a link), an Upload/Replace button
 *   whose file dialog accepts the property's type groups (common/fileTypes.ts `acceptOf`) and a Remove
 *   button. A file over `x-upload.maxSize` is refused before sending, naming the limit; the server checks
 *   the limits and the content again (`POST /artmanager/upload?resource=&field=`, the dataProvider's
 *   `upload`). The value is the stored file's URL.
 * - `FileField` / `FileLink`: a link to the file (thumbnail when it is an image).
 * Kinds `file` (widget `file`) and `image` (when the property declares `x-upload`) use them (kindMap.tsx).
 */
import { useRef, useState } from 'react';
import { Box, FormHelperText, Link, Stack, Typography } from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import Upload from '@mui/icons-material/Upload';
import Delete from '@mui/icons-material/Delete';
import {
  Button,
  FieldTitle,
  InputHelperText,
  useDataProvider,
  useInput,
  useNotify,
  useRecordContext,
  useResourceContext,
  useTranslate,
  useWrappedSource,
} from 'react-admin';
import { acceptOf, formatBytes, type UploadSpec } from '../../common/fileTypes';
import type { PropertySchema } from '../../kernel/dialect/schemaRegistry';
import type { BaasDataProvider } from '../dataProvider';
import { getPath, Thumb } from './fields';
import type { KindProps } from './kindMap';

const IMAGE_URL = /\.(png|jpe?g|gif|bmp|webp)(\?.*)?$/i;

/** The `x-upload` of a property (default: an image of at most 2 MB, the product's portrait rule). */
export function uploadSpecOf(prop: PropertySchema): UploadSpec {
  return (prop['x-upload'] as UploadSpec | undefined) ?? { types: ['image'], maxSize: 2 * 1024 * 1024 };
}

/** A link to an uploaded file: its thumbnail when it is an image, else a file icon and its name. */
export function FileLink({ url, size = 64 }: { url: string; size?: number }) {
  const translate = useTranslate();
  const name = decodeURIComponent(url.split('/').pop() ?? url);
  return (
    <Link
      href={url}
      target="_blank"
      rel="noreferrer"
      onClick={(e) => e.stopPropagation()}
      title={translate('registry.upload.open')}
      data-testid="file-link"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}
    >
      {IMAGE_URL.test(url) ? (
        <Thumb src={url} size={size} alt={name} />
      ) : (
        <>
          <AttachFile fontSize="small" />
          <Typography variant="body2" component="span" noWrap sx={{ maxWidth: 240 }}>
            {/\.pdf$/i.test(name) ? `PDF · ${name.slice(0, 12)}…` : name}
          </Typography>
        </>
      )}
    </Link>
  );
}

/** Display of a file property: {@link FileLink}, or "—". */
export function FileField({ source }: KindProps) {
  const record = useRecordContext();
  const v = getPath(record, source);
  return typeof v === 'string' && v ? <FileLink url={v} /> : <Typography variant="body2">—</Typography>;
}

/** The upload input of a file property (see the module doc). */
export function FileUploadInput({ source, prop, label }: KindProps) {
  const spec = uploadSpecOf(prop);
  const { field, fieldState, isRequired } = useInput({ source, parse: (v) => v });
  // Inside an array input (a traceability step) the full path, e.g. `traceability.0.attachment`.
  const path = useWrappedSource(source);
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<BaasDataProvider>();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const value = typeof field.value === 'string' && field.value ? field.value : null;
  const limit = formatBytes(spec.maxSize);
  const set = (v: string | null) => {
    field.onChange(v);
    field.onBlur();
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > spec.maxSize) {
      notify('registry.upload.too_large', { type: 'warning', messageArgs: { name: file.name, limit } });
      return;
    }
    setBusy(true);
    try {
      set((await dataProvider.upload(file, { resource, field: path })).url);
    } catch (e) {
      notify('registry.upload.failed', { type: 'error', messageArgs: { message: (e as Error).message } });
    } finally {
      setBusy(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <Box sx={{ mb: 2, width: '100%' }} data-testid={`file-input-${path}`}>
      <Typography variant="caption" color="text.secondary" component="div">
        <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />
      </Typography>
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap" sx={{ my: 0.5 }}>
        {value ? (
          <FileLink url={value} size={96} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('registry.upload.none')}
          </Typography>
        )}
        <input
          ref={fileRef}
          type="file"
          hidden
          accept={acceptOf(spec.types, spec.formats)}
          onChange={(e) => void upload(e.target.files?.[0])}
        />
        <Button
          label={
            busy ? 'registry.upload.uploading' : value ? 'registry.upload.replace' : 'registry.upload.button'
          }
          disabled={busy}
          variant="outlined"
          onClick={() => fileRef.current?.click()}
        >
          <Upload />
        </Button>
        {value && (
          <Button label="registry.upload.remove" onClick={() => set(null)}>
            <Delete />
          </Button>
        )}
      </Stack>
      <FormHelperText>
        {translate('registry.upload.hint', { types: (spec.formats ?? spec.types).join(' / '), limit })}
      </FormHelperText>
      <FormHelperText error={!!fieldState.error}>
        <InputHelperText error={fieldState.error?.message} />
      </FormHelperText>
    </Box>
  );
}
