import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedirectPipeline } from './redirect-pipeline.js';

/**
 * The redirect pipeline's door before Fastify: answers what the pipeline can answer at
 * once straight from node:http, skipping Fastify's routing, hooks and request logging
 * (that machinery was most of the cost of a cached redirect, docs/benchmarks.md).
 * Returns false for everything else, which Fastify then handles.
 */
export function redirectFastPath(pipeline: RedirectPipeline): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const answer = pipeline.answerNow(req);
    if (answer === undefined) return false;
    res.writeHead(answer.status, answer.headers as string[]);
    res.end(answer.body);
    return true;
  };
}
