/**
 * Whether the server has begun to stop: serve.ts sets it at the first moment of SIGTERM (or
 * SIGINT), GET /readyz reads it and answers 503 from then on, so a load balancer drains the instance.
 */
export class StopSignal {
  private begun = false;

  begin(): void {
    this.begun = true;
  }

  get stopping(): boolean {
    return this.begun;
  }
}
