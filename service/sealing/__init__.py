"""What callers hold and the service must trust: sealed snapshots (``snapshot.py``), the key
ring they are sealed with (``keys.py``) and the credentials signed with it
(``tokens.py``)."""
