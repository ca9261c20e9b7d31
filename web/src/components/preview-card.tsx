import type { Link } from '../api';

type Preview = NonNullable<Link['preview']>;

/** Where an image lives, in a few words (`img.example.com/…/sale.jpg`), or the text as given when it is no URL. */
function imagePlace(image: string): string {
  try {
    const url = new URL(image);
    const file = url.pathname.split('/').filter(Boolean).at(-1);
    return file ? `${url.host}/…/${file}` : url.host;
  } catch {
    return image;
  }
}

/**
 * A link's card as a chat app shows it (decision 0041): the image above (a large card) or none (a small one), the short
 * link's domain, the title and the description. The image itself is not loaded: the app's pages fetch nothing from
 * another host (its Content-Security-Policy), so its place says where the apps will fetch it from.
 */
export function PreviewCard(props: { preview: Preview; domain: string }) {
  const { preview } = props;
  return (
    <figure class={preview.image ? 'preview-card large' : 'preview-card'} aria-label="Card preview">
      {preview.image && (
        <div class="preview-image" role="img" aria-label={`Image from ${imagePlace(preview.image)}`}>
          <span>{imagePlace(preview.image)}</span>
        </div>
      )}
      <figcaption>
        <span class="preview-domain">{props.domain}</span>
        <strong class="preview-title">{preview.title}</strong>
        {preview.description && <span class="preview-description">{preview.description}</span>}
      </figcaption>
    </figure>
  );
}

/** The link page's section: the card chat apps show for the link, or what they show without one. */
export function PreviewSection(props: { preview: Link['preview']; domain: string }) {
  return (
    <section class="card preview-section" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Card in chats</h2>
      {props.preview ? (
        <>
          <PreviewCard preview={props.preview} domain={props.domain} />
          <p class="muted">
            What Slack, WhatsApp, X, LinkedIn, iMessage, Discord and other apps show when the short link is pasted; people who open it still go
            straight to the destination.
          </p>
        </>
      ) : (
        <p class="muted">No card: chat apps show the destination's own preview. Edit the link to set a title, a description and an image.</p>
      )}
    </section>
  );
}
