from .access import Persisted
from .threads import thread_access


class Thread(Persisted):
    """What the services call: its class methods update the documents of `threads`."""

    impl = thread_access
