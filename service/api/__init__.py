"""The API core, under both faces: each RPC is one synchronous call from a request message
to its answer (``core.py``), asking the access rules (``access.py``) first; ``convert.py``
translates to and from the engine, ``errors.py`` and ``messages.py`` make every refusal,
``pb.py`` loads the generated code and ``jsonfmt.py`` writes answers as JSON. No transport
here: the faces in ``service.grpc`` and ``service.rest`` only translate."""
