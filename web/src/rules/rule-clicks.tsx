import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Choice, type OneLink, type TopList as TopListData } from '../api';
import { TopList } from '../components/top-list';
import { takenWords } from './rule-words';

/** Labels a link's visits can take: 20 rules of up to 10 targets each, and its own url, fit in the API's largest page. */
const LABELS_MAX = 100;

/**
 * "Clicks by rule": what the link's visits by people took of its rules in the range (GET …/top-rules), each in words
 * with the URL it names in the rules now (none when the rules were edited away from it). Asked again when the range
 * or the rules change.
 */
export function RuleClicks(props: { link: OneLink; range: Choice }) {
  const [list, setList] = useState<TopListData | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const reference = `${props.link.domain}/${props.link.slug}`;
  useEffect(() => {
    let current = true;
    setList(undefined);
    setError(null);
    api.top('rules', props.range, reference, LABELS_MAX).then(
      (answer) => current && setList(answer),
      (e: unknown) => current && setError(e instanceof ApiError ? e.message : 'Could not load the clicks by rule.'),
    );
    return () => {
      current = false;
    };
  }, [reference, JSON.stringify(props.range), JSON.stringify(props.link.rules), props.link.originalUrl]);
  return (
    <div class="grid one">
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : (
        <TopList
          title="Clicks by rule"
          list={list}
          empty="No clicks by people through the rules in this range."
          show={(entry) => (
            <>
              {takenWords(entry.label)}{' '}
              <span class="muted break">{typeof entry.meta?.url === 'string' ? entry.meta.url : '(no longer in the rules)'}</span>
            </>
          )}
        />
      )}
    </div>
  );
}
