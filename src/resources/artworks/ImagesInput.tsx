/**
 * The artwork images input: up to `images.maxItems` (9) images, the first being the main picture. Add by
 * uploading files (`POST /artmanager/upload?resource=artworks&field=images`: the schema's `x-upload`, an
 * image of at most 2 MB, checked by content on the server) or by entering a URL (http://, https:// or a
 * path starting with /, as the Tate records' image URLs are kept); remove; make any image the main one;
 * reorder by dragging with @dnd-kit/sortable, by mouse, touch or keyboard (focus an image, Space, arrow
 * keys, Space). Files past the count or the size limit are refused before sending, with a message naming
 * the limit; the form's schema validation (and the server) refuse a 10th image too.
 */
import { useRef, useState, type CSSProperties, type ReactNode } from 'react';
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
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  arrayMove,
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
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
import { acceptOf, formatBytes } from '../../../common/fileTypes';
import type { KindProps } from '../../schema-ui/kindMap';
import { Thumb } from '../../schema-ui/fields';
import { uploadSpecOf } from '../../schema-ui/files';
import type { BaasDataProvider } from '../../dataProvider';

const URL_RE = /^(https?:\/\/\S+|\/\S+)$/;

/** One sortable image tile; `id` is the image URL (unique within the list). */
function SortableImage({
  url,
  index,
  count,
  onMain,
  onRemove,
}: {
  url: string;
  index: number;
  count: number;
  onMain: () => void;
  onRemove: () => void;
}) {
  const translate = useTranslate();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: url });
  const style: CSSProperties = {
    transform: CSS.Transform.toString(transform),
    transition,
    zIndex: isDragging ? 2 : undefined,
    touchAction: 'none',
    cursor: isDragging ? 'grabbing' : 'grab',
  };
  return (
    <Box
      ref={setNodeRef}
      style={style}
      {...attributes}
      {...listeners}
      aria-label={translate('registry.images.handle', { position: index + 1, count })}
      data-testid="image-tile"
      data-url={url}
      sx={{
        position: 'relative',
        border: 2,
        borderColor: index === 0 ? 'primary.main' : 'divider',
        borderRadius: 1,
        p: 0.5,
        bgcolor: 'background.paper',
        boxShadow: isDragging ? 4 : 0,
        '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.light' },
      }}
    >
      <Thumb src={url} size={96} alt={url} />
      {index === 0 ? (
        <Chip
          size="small"
          color="primary"
          label={translate('baas.images.main')}
          sx={{ position: 'absolute', bottom: 4, left: 4 }}
        />
      ) : (
        <CornerButton label={translate('baas.action.make_main')} at={{ bottom: 2, left: 2 }} onClick={onMain}>
          <Star fontSize="inherit" />
        </CornerButton>
      )}
      <CornerButton
        label={translate('baas.action.remove_image')}
        at={{ top: 2, right: 2 }}
        onClick={onRemove}
      >
        <Close fontSize="inherit" />
      </CornerButton>
    </Box>
  );
}

/**
 * A small icon button in a corner of a thumbnail (`at`: its offsets), labelled and with a tooltip; it
 * keeps its pointer and key presses from the drag handle around it.
 */
function CornerButton({
  label,
  at,
  onClick,
  children,
}: {
  label: string;
  at: { top?: number; bottom?: number; left?: number; right?: number };
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={label}>
      <IconButton
        size="small"
        aria-label={label}
        sx={{ position: 'absolute', ...at, bgcolor: 'background.paper' }}
        onPointerDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.stopPropagation()}
        onClick={onClick}
      >
        {children}
      </IconButton>
    </Tooltip>
  );
}

export default function ImagesInput({ source, prop, label }: KindProps) {
  const max = typeof prop.maxItems === 'number' ? prop.maxItems : 9;
  const spec = uploadSpecOf(prop);
  const limit = formatBytes(spec.maxSize);
  const { field, fieldState, isRequired } = useInput({
    source,
    format: (v) => (Array.isArray(v) ? v : []),
    parse: (v) => v,
  });
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<BaasDataProvider>();
  const fileRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const images: string[] = Array.isArray(field.value) ? field.value : [];
  const full = images.length >= max;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const set = (next: string[]) => {
    field.onChange(next);
    field.onBlur();
  };

  const addUrl = () => {
    const u = url.trim();
    if (!URL_RE.test(u)) return notify('baas.images.url_invalid', { type: 'warning' });
    if (images.includes(u)) return setUrl('');
    if (full) return notify('registry.images.too_many', { type: 'warning', messageArgs: { max, name: u } });
    set([...images, u]);
    setUrl('');
  };

  const upload = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    const next = [...images];
    try {
      for (const f of Array.from(files)) {
        if (next.length >= max) {
          notify('registry.images.too_many', { type: 'warning', messageArgs: { max, name: f.name } });
          break;
        }
        if (f.size > spec.maxSize) {
          notify('registry.upload.too_large', { type: 'warning', messageArgs: { name: f.name, limit } });
          continue;
        }
        const { url: stored } = await dataProvider.upload(f, { resource, field: source });
        if (!next.includes(stored)) next.push(stored);
      }
    } catch (e) {
      notify('registry.upload.failed', { type: 'error', messageArgs: { message: (e as Error).message } });
    } finally {
      set(next);
      setBusy(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    set(arrayMove(images, images.indexOf(String(active.id)), images.indexOf(String(over.id))));
  };

  return (
    <Box sx={{ mb: 2, width: '100%' }} data-testid="images-input">
      <Typography variant="caption" color="text.secondary">
        <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} /> ·{' '}
        <span data-testid="images-count">
          {translate('baas.images.count', { count: images.length, max })}
        </span>
      </Typography>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={images} strategy={rectSortingStrategy}>
          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ my: 1 }}>
            {images.map((u, i) => (
              <SortableImage
                key={u}
                url={u}
                index={i}
                count={images.length}
                onMain={() => set(arrayMove(images, i, 0))}
                onRemove={() => set(images.filter((_, j) => j !== i))}
              />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      {images.length > 1 && <FormHelperText>{translate('registry.images.hint')}</FormHelperText>}
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap" sx={{ mt: 1 }}>
        <input
          ref={fileRef}
          type="file"
          accept={acceptOf(spec.types, spec.formats)}
          multiple
          hidden
          data-testid="images-file"
          onChange={(e) => void upload(e.target.files)}
        />
        <Button
          label={busy ? 'baas.images.uploading' : 'baas.action.upload'}
          disabled={busy}
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
          sx={{ flex: 1, minWidth: 200, maxWidth: 480 }}
        />
        <Button label="baas.action.add_url" disabled={full || !url.trim()} onClick={addUrl} />
      </Stack>
      <FormHelperText>
        {translate('registry.upload.hint', { types: (spec.formats ?? spec.types).join(' / '), limit })}
      </FormHelperText>
      {full && <FormHelperText>{translate('baas.images.full', { max })}</FormHelperText>}
      <FormHelperText error={!!fieldState.error}>
        <InputHelperText error={fieldState.error?.message} />
      </FormHelperText>
    </Box>
  );
}
