import { Box, Button, Group, Text } from '@mantine/core';
import SignaturePad from 'signature_pad';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MIN_SIGNATURE_LENGTH, MIN_SIGNATURE_WIDTH, signatureExtent } from './signature-extent';

export type SignatureHandle = {
  /** The signature as a PNG data URL, or null when it is empty or too short to be a signature. */
  read(): { png: string } | { problem: 'empty' | 'too_short' };
  clear(): void;
};

type Props = { label: string; disabled?: boolean; onChange?: () => void };

/**
 * The signature pad: pointer events (mouse, finger, pen), pen pressure where the device reports
 * it, sharp on high-density screens, and the strokes kept when the window is resized or rotated.
 */
export const SignatureField = forwardRef<SignatureHandle, Props>(function SignatureField(
  { label, disabled = false, onChange },
  ref,
) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, {
      minWidth: 0.8,
      maxWidth: 3,
      penColor: '#111827',
      backgroundColor: 'rgb(255,255,255)',
    });
    padRef.current = pad;
    const onBegin = (e: Event): void => {
      // A pen that reports pressure draws wider when pressed harder; mouse and fingers keep the defaults.
      const detail = (e as CustomEvent<PointerEvent | MouseEvent | TouchEvent>).detail;
      const pressure =
        'pointerType' in detail && detail.pointerType === 'pen' && detail.pressure > 0 ? detail.pressure : null;
      pad.minWidth = pressure === null ? 0.8 : 0.5 + pressure;
      pad.maxWidth = pressure === null ? 3 : 1.5 + pressure * 3;
    };
    const onEnd = (): void => changed.current?.();
    pad.addEventListener('beginStroke', onBegin);
    pad.addEventListener('endStroke', onEnd);

    const fit = (): void => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      if (width === 0 || height === 0) return;
      if (canvas.width === Math.round(width * ratio) && canvas.height === Math.round(height * ratio)) return;
      // Resizing a canvas wipes it: keep the strokes and draw them again at the new size.
      const data = pad.toData();
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      pad.fromData(data);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    window.addEventListener('resize', fit);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', fit);
      pad.removeEventListener('beginStroke', onBegin);
      pad.removeEventListener('endStroke', onEnd);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    if (disabled) pad.off();
    else pad.on();
  }, [disabled]);

  useImperativeHandle(ref, () => ({
    read() {
      const pad = padRef.current;
      if (!pad || pad.isEmpty()) return { problem: 'empty' };
      const { length, width } = signatureExtent(pad.toData());
      if (length < MIN_SIGNATURE_LENGTH || width < MIN_SIGNATURE_WIDTH) return { problem: 'too_short' };
      return { png: pad.toDataURL('image/png') };
    },
    clear() {
      padRef.current?.clear();
      changed.current?.();
    },
  }));

  return (
    <Box>
      <Text fw={600} id="signature-label" mb={4}>
        {label}
      </Text>
      <canvas
        ref={canvasRef}
        role="img"
        aria-labelledby="signature-label"
        data-testid="signature-pad"
        style={{
          width: '100%',
          height: 200,
          touchAction: 'none',
          border: '2px dashed var(--mantine-color-gray-6)',
          borderRadius: 8,
          background: '#fff',
          opacity: disabled ? 0.45 : 1,
          display: 'block',
          cursor: disabled ? 'not-allowed' : 'crosshair',
        }}
      />
      <Group justify="flex-end" mt={4}>
        <Button
          variant="default"
          size="sm"
          disabled={disabled}
          onClick={() => {
            padRef.current?.clear();
            changed.current?.();
          }}
        >
          {t('patient.clear')}
        </Button>
      </Group>
    </Box>
  );
});
