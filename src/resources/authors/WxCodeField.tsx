/**
 * The author's mini-program code (replaces the `wxCode` display on the show page's mini-program tab):
 * the code, its `wxUrl` (the author's public verification page, `<origin>/#/verify/author/<id>`) as a QR
 * code drawn by the `qrcode` package, a link downloading that QR code as a PNG, whether the public page
 * is on (`wxIsEnable`), and a button generating a new code (`POST /artmanager/authors/createWx`, the
 * dataProvider's `createWx`).
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button as MuiButton, Stack, Typography } from '@mui/material';
import Download from '@mui/icons-material/Download';
import QrCode2 from '@mui/icons-material/QrCode2';
import QRCode from 'qrcode';
import { Button, useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { BaasDataProvider } from '../../dataProvider';
import { useServerAction } from '../../utils/useServerAction';

export default function WxCodeField() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<BaasDataProvider>();
  const [png, setPng] = useState<string | null>(null);
  const { busy, run } = useServerAction();
  const wxUrl = typeof record?.wxUrl === 'string' && record.wxUrl ? record.wxUrl : null;

  useEffect(() => {
    let live = true;
    if (!wxUrl) {
      setPng(null);
      return;
    }
    void QRCode.toDataURL(wxUrl, { margin: 2, width: 256, errorCorrectionLevel: 'M' }).then(
      (u) => live && setPng(u),
    );
    return () => {
      live = false;
    };
  }, [wxUrl]);

  if (!record) return null;
  const generate = () =>
    run(async () => {
      await dataProvider.createWx(record.id);
      notify('registry.wx.generated', { type: 'success' });
    });

  return (
    <Stack spacing={1} alignItems="flex-start" data-testid="wx-code">
      {record.wxCode ? (
        <Typography variant="body2" sx={{ fontFamily: 'monospace' }} data-testid="wx-code-text">
          {String(record.wxCode)}
        </Typography>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('registry.wx.none')}
        </Typography>
      )}
      {png && (
        <Box
          component="img"
          src={png}
          alt={translate('registry.wx.title')}
          data-testid="wx-qr"
          sx={{ width: 192, height: 192, border: 1, borderColor: 'divider', borderRadius: 1 }}
        />
      )}
      {wxUrl && (
        <Alert severity={record.wxIsEnable === 1 ? 'success' : 'warning'} sx={{ py: 0 }}>
          {translate(record.wxIsEnable === 1 ? 'registry.wx.enabled' : 'registry.wx.disabled')}
        </Alert>
      )}
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
        <Button
          label={record.wxCode ? 'registry.wx.regenerate' : 'registry.wx.generate'}
          variant="contained"
          disabled={busy}
          onClick={() => void generate()}
        >
          <QrCode2 />
        </Button>
        {png && (
          <MuiButton
            component="a"
            href={png}
            download={`author-${record.id}-mini-program.png`}
            startIcon={<Download />}
            size="small"
            data-testid="wx-download"
          >
            {translate('registry.wx.download')}
          </MuiButton>
        )}
      </Stack>
    </Stack>
  );
}
