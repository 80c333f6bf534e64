/**
 * Uploaded-file fields of the schema engine, for every property declaring `x-upload` (kernel/dialect/keywords.ts):
 * - `FileUploadInput`: the current file (see `FileLink`), an Upload/Replace button whose file dialog
 *   accepts the property's type groups (common/fileTypes.ts `acceptOf`: audio offers mp3, wav, wmv) and
 *   a Remove button. Before sending, a file over `x-upload.maxSize`, or whose content is none of the
 *   property's types (common/fileTypes.ts `detectFileKind` and `accepts`, the server's own check), is
 *   refused with a message naming the field; the server checks the limits and the content again
 *   (`POST /artmanager/upload?resource=&field=`, the dataProvider's `upload`). The value is the stored
 *   file's URL.
 * - `FileField` / `FileLink`: the file by its URL's group (common/fileTypes.ts `groupOfName`): an image's
 *   thumbnail, an audio file's player (`<audio controls>`, the product's audio group: mp3, wav, wmv), a
 *   video file's player (`<video controls>`: mp4, m2v, mkv), else a link.
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
  useTranslateLabel,
  useWrappedSource,
} from 'react-admin';
import {
  acceptOf,
  accepts,
  detectFileKind,
  formatBytes,
  groupOfName,
  type UploadSpec,
} from '../../common/fileTypes';
import type { PropertySchema } from '../../kernel/dialect/schemaRegistry';
import type { BaasDataProvider } from '../dataProvider';
import { getPath, Thumb } from './fields';
import type { KindProps } from './kindMap';

/** The `x-upload` of a property (default: an image of at most 2 MB, the product's portrait rule). */
export function uploadSpecOf(prop: PropertySchema): UploadSpec {
  return (prop['x-upload'] as UploadSpec | undefined) ?? { types: ['image'], maxSize: 2 * 1024 * 1024 };
}

/**
 * An uploaded file: an audio file's player (`<audio controls>`), a video file's player (`<video
 * controls>`, the product's video group: mp4, m2v, mkv); else a link to it, showing its thumbnail when it
 * is an image, else a file icon and its name. Both players load nothing until played (`preload="none"`)
 * and are named "Play <file name>".
 */
export function FileLink({ url, size = 64 }: { url: string; size?: number }) {
  const translate = useTranslate();
  const name = decodeURIComponent(url.split('/').pop() ?? url);
  const group = groupOfName(url);
  if (group === 'audio' || group === 'video') {
    const Player = group;
    return (
      // A list row opens its record on click: playing is not opening.
      <Box component="span" onClick={(e) => e.stopPropagation()} sx={{ display: 'inline-flex' }}>
        <Player
          controls
          preload="none"
          src={url}
          aria-label={translate('registry.upload.player', { name })}
          data-testid={`file-${group}`}
          // A video keeps its aspect ratio within the field's width (at most 480 px wide on a show page).
          style={group === 'video' ? { width: 480, maxWidth: '100%', height: 'auto' } : { maxWidth: '100%' }}
        />
      </Box>
    );
  }
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
      {group === 'image' ? (
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
  const translateLabel = useTranslateLabel();
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

  // Formats are file extensions (png, mp3), said as they are; groups are words, in the user's language.
  const types = (
    spec.formats ?? spec.types.map((g) => translate(`registry.upload.groups.${g}`, { _: g }))
  ).join(' / ');
  /** Refuses `file` before sending: a message naming the field, the file and what was wrong. */
  const refuse = (key: 'field_too_large' | 'field_wrong_type', file: File) => {
    const fieldName = String(translateLabel({ label, source, resource }));
    notify(`registry.upload.${key}`, {
      type: 'warning',
      messageArgs: { field: fieldName, name: file.name, limit, types },
    });
    if (fileRef.current) fileRef.current.value = '';
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > spec.maxSize) return refuse('field_too_large', file);
    // The content decides, as on the server: an mp3 is audio whatever its name or the browser's type.
    const kind = detectFileKind(new Uint8Array(await file.arrayBuffer()), file.name);
    if (!kind || !accepts(spec, kind)) return refuse('field_wrong_type', file);
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
      <FormHelperText>{translate('registry.upload.hint', { types, limit })}</FormHelperText>
      <FormHelperText error={!!fieldState.error}>
        <InputHelperText error={fieldState.error?.message} />
      </FormHelperText>
    </Box>
  );
}
