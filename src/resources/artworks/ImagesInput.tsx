/**
 * The artwork images input: up to 9 image URLs, the first being the main picture. Add by uploading a
 * file (`POST /artmanager/upload` multipart → `{url}`, via the dataProvider's `upload`) or by entering a
 * URL (http://, https:// or a path starting with /); remove, or make any image the main one. The limit
 * comes from the schema (`images.maxItems`); the form's schema validation reports it too.
 */
import { useRef, useState } from 'react';
import {
  Box,
  Chip,
  FormHelperText,
  IconButton,
  Stack,
  TextField as MuiTextField,
  Tooltip,
  Typography,
} from '@mui/material';
import Close from '@mui/icons-material/Close';
import Star from '@mui/icons-material/Star';
import Upload from '@mui/icons-material/Upload';
import {
  Button,
  FieldTitle,
  InputHelperText,
  useDataProvider,
  useInput,
  useNotify,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { KindProps } from '../../schema-ui/kindMap';
import { Thumb } from '../../schema-ui/fields';
import type { BaasDataProvider } from '../../dataProvider';

const URL_RE = /^(https?:\/\/\S+|\/\S+)$/;

export default function ImagesInput({ source, prop, label }: KindProps) {
  const max = typeof prop.maxItems === 'number' ? prop.maxItems : 9;
  const { field, fieldState, isRequired } = useInput({
    source,
    format: (v) => (Array.isArray(v) ? v : []),
    parse: (v) => v,
  });
  const resource = useResourceContext();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<BaasDataProvider>();
  const fileRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const images: string[] = Array.isArray(field.value) ? field.value : [];
  const full = images.length >= max;
  const set = (next: string[]) => {
    field.onChange(next);
    field.onBlur();
  };

  const addUrl = () => {
    const u = url.trim();
    if (!URL_RE.test(u)) return notify('baas.images.url_invalid', { type: 'warning' });
    set([...images, u]);
    setUrl('');
  };

  const upload = async (files: FileList | null) => {
    if (!files) return;
    setBusy(true);
    try {
      const added: string[] = [];
      for (const f of Array.from(files).slice(0, max - images.length))
        added.push((await dataProvider.upload(f)).url);
      set([...images, ...added]);
    } catch (e) {
      notify('baas.images.upload_failed', { type: 'error', messageArgs: { message: (e as Error).message } });
    } finally {
      setBusy(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <Box sx={{ mb: 2, width: '100%' }} data-testid="images-input">
      <Typography variant="caption" color="text.secondary">
        <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} /> ·{' '}
        {translate('baas.images.count', { count: images.length, max })}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ my: 1 }}>
        {images.map((u, i) => (
          <Box
            key={`${i}-${u}`}
            sx={{
              position: 'relative',
              border: 1,
              borderColor: i === 0 ? 'primary.main' : 'divider',
              borderRadius: 1,
              p: 0.5,
            }}
          >
            <Thumb src={u} size={96} alt={u} />
            {i === 0 ? (
              <Chip
                size="small"
                color="primary"
                label={translate('baas.images.main')}
                sx={{ position: 'absolute', bottom: 4, left: 4 }}
              />
            ) : (
              <Tooltip title={translate('baas.action.make_main')}>
                <IconButton
                  size="small"
                  sx={{ position: 'absolute', bottom: 2, left: 2, bgcolor: 'background.paper' }}
                  onClick={() => set([u, ...images.filter((_, j) => j !== i)])}
                >
                  <Star fontSize="inherit" />
                </IconButton>
              </Tooltip>
            )}
            <Tooltip title={translate('baas.action.remove_image')}>
              <IconButton
                size="small"
                sx={{ position: 'absolute', top: 2, right: 2, bgcolor: 'background.paper' }}
                onClick={() => set(images.filter((_, j) => j !== i))}
              >
                <Close fontSize="inherit" />
              </IconButton>
            </Tooltip>
          </Box>
        ))}
      </Stack>
      <Stack direction="row" spacing={1} alignItems="center">
        <input
          ref={fileRef}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          multiple
          hidden
          onChange={(e) => void upload(e.target.files)}
        />
        <Button
          label={busy ? 'baas.images.uploading' : 'baas.action.upload'}
          disabled={full || busy}
          onClick={() => fileRef.current?.click()}
          variant="outlined"
        >
          <Upload />
        </Button>
        <MuiTextField
          size="small"
          label={translate('baas.images.url')}
          value={url}
          disabled={full}
          onChange={(e) => setUrl(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addUrl();
            }
          }}
          sx={{ flex: 1, maxWidth: 480 }}
        />
        <Button label="baas.action.add_url" disabled={full || !url.trim()} onClick={addUrl} />
      </Stack>
      {full && <FormHelperText>{translate('baas.images.full', { max })}</FormHelperText>}
      <FormHelperText error={!!fieldState.error}>
        <InputHelperText error={fieldState.error?.message} />
      </FormHelperText>
    </Box>
  );
}
