// The checks of a link's card for preview fetchers (decision 0041) that need nothing but the input: a title as a
// link's title is checked, a description as a comment, an image as a link's url is (plus https only), each failure
// named by its path (`preview.image`; `2.preview.image` in a bulk request). The blocklist is asked at write time.
import { BriefError, type FieldError, required } from '../errors.js';
import { linkDestination } from '../net/normalize-url.js';
import type { StoredPreview } from '../storage/stores/links.js';
import { LINK_ERRORS } from './link-errors.js';
import { optionalText, PREVIEW_DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH } from './link-fields.js';
import type { PreviewInput } from './preview-schemas.js';

/** A card to store, or null for none; throws one validation error listing every part that failed. */
export function checkPreview(input: PreviewInput, allowCredentials: boolean): StoredPreview | null {
  if (input === null) return null;
  const errors: FieldError[] = [];
  const part = <T>(check: () => T): T | null => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof BriefError) || !error.errors) throw error;
      errors.push(...error.errors);
      return null;
    }
  };
  const title = part(() => optionalText('preview.title', input.title, TITLE_MAX_LENGTH));
  if (title === null && errors.length === 0) errors.push(required('preview.title'));
  const description = part(() => optionalText('preview.description', input.description, PREVIEW_DESCRIPTION_MAX_LENGTH));
  const image = input.image ? part(() => previewImage(input.image!, allowCredentials)) : null;
  const [first] = errors;
  if (first) throw new BriefError('E_VALIDATION_ERROR', first.message, errors);
  return { title: title!, description, image };
}

/** The card's image: a URL a link could have (normalized, no credentials), and https, as social apps require. */
function previewImage(raw: string, allowCredentials: boolean): string {
  const url = linkDestination(raw, allowCredentials, 'preview.image');
  if (url.protocol !== 'https:') throw LINK_ERRORS.previewImageNotHttps();
  return url.href;
}
