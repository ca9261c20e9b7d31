import { qrUrl } from '../api';

/** The QR code of a short URL (drawn by the API's /v2/qrcode) with SVG and PNG downloads. */
export function QrCode(props: { shortUrl: string; name: string; size?: number }) {
  const size = props.size ?? 192;
  return (
    <figure class="qr">
      <img src={qrUrl(props.shortUrl, 'svg')} width={size} height={size} alt={`QR code for ${props.shortUrl}`} />
      <figcaption>
        <a href={qrUrl(props.shortUrl, 'svg')} download={`${props.name}-qr.svg`}>
          Download SVG
        </a>
        <a href={qrUrl(props.shortUrl, 'png', 1024)} download={`${props.name}-qr.png`}>
          Download PNG
        </a>
      </figcaption>
    </figure>
  );
}
