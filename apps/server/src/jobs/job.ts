/** Background work of the server: started when the server is ready, stopped (and awaited) when it closes. */
export interface Job {
  name: string;
  start(): void;
  stop(): Promise<void>;
}
