// Client-side presence stream over a websocket; no database access here.
import { fromEvent, Observable } from 'rxjs';
import { debounceTime, distinctUntilChanged, map, skip } from 'rxjs/operators';

export interface PresenceEvent {
  userId: string;
  online: boolean;
}

export function presenceChanges(socket: WebSocket): Observable<PresenceEvent> {
  return fromEvent<MessageEvent>(socket, 'message').pipe(
    skip(1), // ok: skip-paging — RxJS operator; the first frame is the handshake
    map((msg) => JSON.parse(msg.data) as PresenceEvent),
    distinctUntilChanged((a, b) => a.userId === b.userId && a.online === b.online),
  );
}

export function typingIndicator(socket: WebSocket, replayed: number): Observable<string> {
  return fromEvent<MessageEvent>(socket, 'typing').pipe(
    skip(replayed), // ok: skip-paging — RxJS operator, drops replayed frames
    debounceTime(300),
    map((msg) => String(msg.data)),
  );
}
