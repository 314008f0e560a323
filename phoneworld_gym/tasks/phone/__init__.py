"""Phone (dialer) tasks over the common ``call_log`` and ``contacts`` tables."""
