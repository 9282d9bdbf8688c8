"""``python -m service``: run the gRPC and REST servers (see service/server.py)."""

import sys

from service.server import main

sys.exit(main())
