package io.github.canastarules.canasta.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * The stateless Canasta rules engine. Every call carries the game as an
 * opaque sealed snapshot (AES-256-GCM) and every state change answers with the
 * next snapshot plus what the caller may see. Errors are google.rpc.Status with
 * an ErrorInfo whose `reason` is a stable code (docs/api.md).
 * Credentials: Deal, NextDeal (for the host) and ImportPosition answer a
 * `host_token` and one `seat_tokens` entry per seat. A call presents one of
 * them as `authorization: Bearer &lt;token&gt;` (gRPC metadata or the HTTP header).
 * The host token acts for any seat and sees everything; a seat token acts and
 * sees as its seat only; a call without one is a spectator's, who sees the
 * public table and may not act (docs/security.md has the table per RPC).
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class CanastaEngineGrpc {

  private CanastaEngineGrpc() {}

  public static final java.lang.String SERVICE_NAME = "canasta.v1.CanastaEngine";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ListVariantsRequest,
      io.github.canastarules.canasta.v1.ListVariantsResponse> getListVariantsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListVariants",
      requestType = io.github.canastarules.canasta.v1.ListVariantsRequest.class,
      responseType = io.github.canastarules.canasta.v1.ListVariantsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ListVariantsRequest,
      io.github.canastarules.canasta.v1.ListVariantsResponse> getListVariantsMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ListVariantsRequest, io.github.canastarules.canasta.v1.ListVariantsResponse> getListVariantsMethod;
    if ((getListVariantsMethod = CanastaEngineGrpc.getListVariantsMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getListVariantsMethod = CanastaEngineGrpc.getListVariantsMethod) == null) {
          CanastaEngineGrpc.getListVariantsMethod = getListVariantsMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.ListVariantsRequest, io.github.canastarules.canasta.v1.ListVariantsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListVariants"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ListVariantsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ListVariantsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("ListVariants"))
              .build();
        }
      }
    }
    return getListVariantsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.DealRequest,
      io.github.canastarules.canasta.v1.DealResponse> getDealMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Deal",
      requestType = io.github.canastarules.canasta.v1.DealRequest.class,
      responseType = io.github.canastarules.canasta.v1.DealResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.DealRequest,
      io.github.canastarules.canasta.v1.DealResponse> getDealMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.DealRequest, io.github.canastarules.canasta.v1.DealResponse> getDealMethod;
    if ((getDealMethod = CanastaEngineGrpc.getDealMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getDealMethod = CanastaEngineGrpc.getDealMethod) == null) {
          CanastaEngineGrpc.getDealMethod = getDealMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.DealRequest, io.github.canastarules.canasta.v1.DealResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Deal"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.DealRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.DealResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("Deal"))
              .build();
        }
      }
    }
    return getDealMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.LegalMovesRequest,
      io.github.canastarules.canasta.v1.LegalMovesResponse> getLegalMovesMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "LegalMoves",
      requestType = io.github.canastarules.canasta.v1.LegalMovesRequest.class,
      responseType = io.github.canastarules.canasta.v1.LegalMovesResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.LegalMovesRequest,
      io.github.canastarules.canasta.v1.LegalMovesResponse> getLegalMovesMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.LegalMovesRequest, io.github.canastarules.canasta.v1.LegalMovesResponse> getLegalMovesMethod;
    if ((getLegalMovesMethod = CanastaEngineGrpc.getLegalMovesMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getLegalMovesMethod = CanastaEngineGrpc.getLegalMovesMethod) == null) {
          CanastaEngineGrpc.getLegalMovesMethod = getLegalMovesMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.LegalMovesRequest, io.github.canastarules.canasta.v1.LegalMovesResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "LegalMoves"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.LegalMovesRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.LegalMovesResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("LegalMoves"))
              .build();
        }
      }
    }
    return getLegalMovesMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ApplyMoveRequest,
      io.github.canastarules.canasta.v1.ApplyMoveResponse> getApplyMoveMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ApplyMove",
      requestType = io.github.canastarules.canasta.v1.ApplyMoveRequest.class,
      responseType = io.github.canastarules.canasta.v1.ApplyMoveResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ApplyMoveRequest,
      io.github.canastarules.canasta.v1.ApplyMoveResponse> getApplyMoveMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ApplyMoveRequest, io.github.canastarules.canasta.v1.ApplyMoveResponse> getApplyMoveMethod;
    if ((getApplyMoveMethod = CanastaEngineGrpc.getApplyMoveMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getApplyMoveMethod = CanastaEngineGrpc.getApplyMoveMethod) == null) {
          CanastaEngineGrpc.getApplyMoveMethod = getApplyMoveMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.ApplyMoveRequest, io.github.canastarules.canasta.v1.ApplyMoveResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ApplyMove"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ApplyMoveRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ApplyMoveResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("ApplyMove"))
              .build();
        }
      }
    }
    return getApplyMoveMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ScoreHandRequest,
      io.github.canastarules.canasta.v1.ScoreHandResponse> getScoreHandMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ScoreHand",
      requestType = io.github.canastarules.canasta.v1.ScoreHandRequest.class,
      responseType = io.github.canastarules.canasta.v1.ScoreHandResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ScoreHandRequest,
      io.github.canastarules.canasta.v1.ScoreHandResponse> getScoreHandMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ScoreHandRequest, io.github.canastarules.canasta.v1.ScoreHandResponse> getScoreHandMethod;
    if ((getScoreHandMethod = CanastaEngineGrpc.getScoreHandMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getScoreHandMethod = CanastaEngineGrpc.getScoreHandMethod) == null) {
          CanastaEngineGrpc.getScoreHandMethod = getScoreHandMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.ScoreHandRequest, io.github.canastarules.canasta.v1.ScoreHandResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ScoreHand"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ScoreHandRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ScoreHandResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("ScoreHand"))
              .build();
        }
      }
    }
    return getScoreHandMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.GetViewRequest,
      io.github.canastarules.canasta.v1.GetViewResponse> getGetViewMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetView",
      requestType = io.github.canastarules.canasta.v1.GetViewRequest.class,
      responseType = io.github.canastarules.canasta.v1.GetViewResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.GetViewRequest,
      io.github.canastarules.canasta.v1.GetViewResponse> getGetViewMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.GetViewRequest, io.github.canastarules.canasta.v1.GetViewResponse> getGetViewMethod;
    if ((getGetViewMethod = CanastaEngineGrpc.getGetViewMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getGetViewMethod = CanastaEngineGrpc.getGetViewMethod) == null) {
          CanastaEngineGrpc.getGetViewMethod = getGetViewMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.GetViewRequest, io.github.canastarules.canasta.v1.GetViewResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetView"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.GetViewRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.GetViewResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("GetView"))
              .build();
        }
      }
    }
    return getGetViewMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.NextDealRequest,
      io.github.canastarules.canasta.v1.NextDealResponse> getNextDealMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "NextDeal",
      requestType = io.github.canastarules.canasta.v1.NextDealRequest.class,
      responseType = io.github.canastarules.canasta.v1.NextDealResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.NextDealRequest,
      io.github.canastarules.canasta.v1.NextDealResponse> getNextDealMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.NextDealRequest, io.github.canastarules.canasta.v1.NextDealResponse> getNextDealMethod;
    if ((getNextDealMethod = CanastaEngineGrpc.getNextDealMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getNextDealMethod = CanastaEngineGrpc.getNextDealMethod) == null) {
          CanastaEngineGrpc.getNextDealMethod = getNextDealMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.NextDealRequest, io.github.canastarules.canasta.v1.NextDealResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "NextDeal"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.NextDealRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.NextDealResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("NextDeal"))
              .build();
        }
      }
    }
    return getNextDealMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ImportPositionRequest,
      io.github.canastarules.canasta.v1.ImportPositionResponse> getImportPositionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ImportPosition",
      requestType = io.github.canastarules.canasta.v1.ImportPositionRequest.class,
      responseType = io.github.canastarules.canasta.v1.ImportPositionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ImportPositionRequest,
      io.github.canastarules.canasta.v1.ImportPositionResponse> getImportPositionMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ImportPositionRequest, io.github.canastarules.canasta.v1.ImportPositionResponse> getImportPositionMethod;
    if ((getImportPositionMethod = CanastaEngineGrpc.getImportPositionMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getImportPositionMethod = CanastaEngineGrpc.getImportPositionMethod) == null) {
          CanastaEngineGrpc.getImportPositionMethod = getImportPositionMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.ImportPositionRequest, io.github.canastarules.canasta.v1.ImportPositionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ImportPosition"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ImportPositionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ImportPositionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("ImportPosition"))
              .build();
        }
      }
    }
    return getImportPositionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ExportPositionRequest,
      io.github.canastarules.canasta.v1.ExportPositionResponse> getExportPositionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ExportPosition",
      requestType = io.github.canastarules.canasta.v1.ExportPositionRequest.class,
      responseType = io.github.canastarules.canasta.v1.ExportPositionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ExportPositionRequest,
      io.github.canastarules.canasta.v1.ExportPositionResponse> getExportPositionMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.ExportPositionRequest, io.github.canastarules.canasta.v1.ExportPositionResponse> getExportPositionMethod;
    if ((getExportPositionMethod = CanastaEngineGrpc.getExportPositionMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getExportPositionMethod = CanastaEngineGrpc.getExportPositionMethod) == null) {
          CanastaEngineGrpc.getExportPositionMethod = getExportPositionMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.ExportPositionRequest, io.github.canastarules.canasta.v1.ExportPositionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ExportPosition"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ExportPositionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.ExportPositionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("ExportPosition"))
              .build();
        }
      }
    }
    return getExportPositionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.SuggestMoveRequest,
      io.github.canastarules.canasta.v1.SuggestMoveResponse> getSuggestMoveMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SuggestMove",
      requestType = io.github.canastarules.canasta.v1.SuggestMoveRequest.class,
      responseType = io.github.canastarules.canasta.v1.SuggestMoveResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.SuggestMoveRequest,
      io.github.canastarules.canasta.v1.SuggestMoveResponse> getSuggestMoveMethod() {
    io.grpc.MethodDescriptor<io.github.canastarules.canasta.v1.SuggestMoveRequest, io.github.canastarules.canasta.v1.SuggestMoveResponse> getSuggestMoveMethod;
    if ((getSuggestMoveMethod = CanastaEngineGrpc.getSuggestMoveMethod) == null) {
      synchronized (CanastaEngineGrpc.class) {
        if ((getSuggestMoveMethod = CanastaEngineGrpc.getSuggestMoveMethod) == null) {
          CanastaEngineGrpc.getSuggestMoveMethod = getSuggestMoveMethod =
              io.grpc.MethodDescriptor.<io.github.canastarules.canasta.v1.SuggestMoveRequest, io.github.canastarules.canasta.v1.SuggestMoveResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SuggestMove"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.SuggestMoveRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  io.github.canastarules.canasta.v1.SuggestMoveResponse.getDefaultInstance()))
              .setSchemaDescriptor(new CanastaEngineMethodDescriptorSupplier("SuggestMove"))
              .build();
        }
      }
    }
    return getSuggestMoveMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static CanastaEngineStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CanastaEngineStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CanastaEngineStub>() {
        @java.lang.Override
        public CanastaEngineStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CanastaEngineStub(channel, callOptions);
        }
      };
    return CanastaEngineStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static CanastaEngineBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CanastaEngineBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CanastaEngineBlockingV2Stub>() {
        @java.lang.Override
        public CanastaEngineBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CanastaEngineBlockingV2Stub(channel, callOptions);
        }
      };
    return CanastaEngineBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static CanastaEngineBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CanastaEngineBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CanastaEngineBlockingStub>() {
        @java.lang.Override
        public CanastaEngineBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CanastaEngineBlockingStub(channel, callOptions);
        }
      };
    return CanastaEngineBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static CanastaEngineFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<CanastaEngineFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<CanastaEngineFutureStub>() {
        @java.lang.Override
        public CanastaEngineFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new CanastaEngineFutureStub(channel, callOptions);
        }
      };
    return CanastaEngineFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * The stateless Canasta rules engine. Every call carries the game as an
   * opaque sealed snapshot (AES-256-GCM) and every state change answers with the
   * next snapshot plus what the caller may see. Errors are google.rpc.Status with
   * an ErrorInfo whose `reason` is a stable code (docs/api.md).
   * Credentials: Deal, NextDeal (for the host) and ImportPosition answer a
   * `host_token` and one `seat_tokens` entry per seat. A call presents one of
   * them as `authorization: Bearer &lt;token&gt;` (gRPC metadata or the HTTP header).
   * The host token acts for any seat and sees everything; a seat token acts and
   * sees as its seat only; a call without one is a spectator's, who sees the
   * public table and may not act (docs/security.md has the table per RPC).
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * The games this server plays, with their options.
     * </pre>
     */
    default void listVariants(io.github.canastarules.canasta.v1.ListVariantsRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ListVariantsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListVariantsMethod(), responseObserver);
    }

    /**
     * <pre>
     * Deal the first hand of a new game.
     * </pre>
     */
    default void deal(io.github.canastarules.canasta.v1.DealRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.DealResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDealMethod(), responseObserver);
    }

    /**
     * <pre>
     * The legal moves of the seat whose move is due (host), or of the caller's
     * seat when it may act (seat token). Spectators are refused.
     * </pre>
     */
    default void legalMoves(io.github.canastarules.canasta.v1.LegalMovesRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.LegalMovesResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getLegalMovesMethod(), responseObserver);
    }

    /**
     * <pre>
     * Apply one move; answers the next snapshot. The host acts for any seat, a
     * seat token only for its seat; spectators are refused.
     * </pre>
     */
    default void applyMove(io.github.canastarules.canasta.v1.ApplyMoveRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ApplyMoveResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getApplyMoveMethod(), responseObserver);
    }

    /**
     * <pre>
     * The hand's score (provisional while the hand is played: then hidden hands
     * count only for the host, and a seat sees its own hand's points alone).
     * </pre>
     */
    default void scoreHand(io.github.canastarules.canasta.v1.ScoreHandRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ScoreHandResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getScoreHandMethod(), responseObserver);
    }

    /**
     * <pre>
     * Seat views of a snapshot: any or all for the host, a seat's own for its
     * token, the public view for a spectator.
     * </pre>
     */
    default void getView(io.github.canastarules.canasta.v1.GetViewRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.GetViewResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetViewMethod(), responseObserver);
    }

    /**
     * <pre>
     * Deal the next hand after a hand is over.
     * </pre>
     */
    default void nextDeal(io.github.canastarules.canasta.v1.NextDealRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.NextDealResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getNextDealMethod(), responseObserver);
    }

    /**
     * <pre>
     * Start a game from a position in the text notation (docs/notation.md).
     * </pre>
     */
    default void importPosition(io.github.canastarules.canasta.v1.ImportPositionRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ImportPositionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getImportPositionMethod(), responseObserver);
    }

    /**
     * <pre>
     * The whole position of a snapshot in the text notation (reveals every hand):
     * the host alone, as CANASTA_EXPORT_POLICY allows.
     * </pre>
     */
    default void exportPosition(io.github.canastarules.canasta.v1.ExportPositionRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ExportPositionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getExportPositionMethod(), responseObserver);
    }

    /**
     * <pre>
     * A legal move chosen by a bot (not applied), from what the moving seat
     * may know only: for the awaited seat (host) or the caller's own seat.
     * </pre>
     */
    default void suggestMove(io.github.canastarules.canasta.v1.SuggestMoveRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.SuggestMoveResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSuggestMoveMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service CanastaEngine.
   * <pre>
   * The stateless Canasta rules engine. Every call carries the game as an
   * opaque sealed snapshot (AES-256-GCM) and every state change answers with the
   * next snapshot plus what the caller may see. Errors are google.rpc.Status with
   * an ErrorInfo whose `reason` is a stable code (docs/api.md).
   * Credentials: Deal, NextDeal (for the host) and ImportPosition answer a
   * `host_token` and one `seat_tokens` entry per seat. A call presents one of
   * them as `authorization: Bearer &lt;token&gt;` (gRPC metadata or the HTTP header).
   * The host token acts for any seat and sees everything; a seat token acts and
   * sees as its seat only; a call without one is a spectator's, who sees the
   * public table and may not act (docs/security.md has the table per RPC).
   * </pre>
   */
  public static abstract class CanastaEngineImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return CanastaEngineGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service CanastaEngine.
   * <pre>
   * The stateless Canasta rules engine. Every call carries the game as an
   * opaque sealed snapshot (AES-256-GCM) and every state change answers with the
   * next snapshot plus what the caller may see. Errors are google.rpc.Status with
   * an ErrorInfo whose `reason` is a stable code (docs/api.md).
   * Credentials: Deal, NextDeal (for the host) and ImportPosition answer a
   * `host_token` and one `seat_tokens` entry per seat. A call presents one of
   * them as `authorization: Bearer &lt;token&gt;` (gRPC metadata or the HTTP header).
   * The host token acts for any seat and sees everything; a seat token acts and
   * sees as its seat only; a call without one is a spectator's, who sees the
   * public table and may not act (docs/security.md has the table per RPC).
   * </pre>
   */
  public static final class CanastaEngineStub
      extends io.grpc.stub.AbstractAsyncStub<CanastaEngineStub> {
    private CanastaEngineStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CanastaEngineStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CanastaEngineStub(channel, callOptions);
    }

    /**
     * <pre>
     * The games this server plays, with their options.
     * </pre>
     */
    public void listVariants(io.github.canastarules.canasta.v1.ListVariantsRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ListVariantsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListVariantsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Deal the first hand of a new game.
     * </pre>
     */
    public void deal(io.github.canastarules.canasta.v1.DealRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.DealResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDealMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The legal moves of the seat whose move is due (host), or of the caller's
     * seat when it may act (seat token). Spectators are refused.
     * </pre>
     */
    public void legalMoves(io.github.canastarules.canasta.v1.LegalMovesRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.LegalMovesResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getLegalMovesMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Apply one move; answers the next snapshot. The host acts for any seat, a
     * seat token only for its seat; spectators are refused.
     * </pre>
     */
    public void applyMove(io.github.canastarules.canasta.v1.ApplyMoveRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ApplyMoveResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getApplyMoveMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The hand's score (provisional while the hand is played: then hidden hands
     * count only for the host, and a seat sees its own hand's points alone).
     * </pre>
     */
    public void scoreHand(io.github.canastarules.canasta.v1.ScoreHandRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ScoreHandResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getScoreHandMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Seat views of a snapshot: any or all for the host, a seat's own for its
     * token, the public view for a spectator.
     * </pre>
     */
    public void getView(io.github.canastarules.canasta.v1.GetViewRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.GetViewResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetViewMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Deal the next hand after a hand is over.
     * </pre>
     */
    public void nextDeal(io.github.canastarules.canasta.v1.NextDealRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.NextDealResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getNextDealMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Start a game from a position in the text notation (docs/notation.md).
     * </pre>
     */
    public void importPosition(io.github.canastarules.canasta.v1.ImportPositionRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ImportPositionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getImportPositionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * The whole position of a snapshot in the text notation (reveals every hand):
     * the host alone, as CANASTA_EXPORT_POLICY allows.
     * </pre>
     */
    public void exportPosition(io.github.canastarules.canasta.v1.ExportPositionRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ExportPositionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getExportPositionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * A legal move chosen by a bot (not applied), from what the moving seat
     * may know only: for the awaited seat (host) or the caller's own seat.
     * </pre>
     */
    public void suggestMove(io.github.canastarules.canasta.v1.SuggestMoveRequest request,
        io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.SuggestMoveResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSuggestMoveMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service CanastaEngine.
   * <pre>
   * The stateless Canasta rules engine. Every call carries the game as an
   * opaque sealed snapshot (AES-256-GCM) and every state change answers with the
   * next snapshot plus what the caller may see. Errors are google.rpc.Status with
   * an ErrorInfo whose `reason` is a stable code (docs/api.md).
   * Credentials: Deal, NextDeal (for the host) and ImportPosition answer a
   * `host_token` and one `seat_tokens` entry per seat. A call presents one of
   * them as `authorization: Bearer &lt;token&gt;` (gRPC metadata or the HTTP header).
   * The host token acts for any seat and sees everything; a seat token acts and
   * sees as its seat only; a call without one is a spectator's, who sees the
   * public table and may not act (docs/security.md has the table per RPC).
   * </pre>
   */
  public static final class CanastaEngineBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<CanastaEngineBlockingV2Stub> {
    private CanastaEngineBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CanastaEngineBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CanastaEngineBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * The games this server plays, with their options.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ListVariantsResponse listVariants(io.github.canastarules.canasta.v1.ListVariantsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListVariantsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deal the first hand of a new game.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.DealResponse deal(io.github.canastarules.canasta.v1.DealRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDealMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The legal moves of the seat whose move is due (host), or of the caller's
     * seat when it may act (seat token). Spectators are refused.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.LegalMovesResponse legalMoves(io.github.canastarules.canasta.v1.LegalMovesRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getLegalMovesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Apply one move; answers the next snapshot. The host acts for any seat, a
     * seat token only for its seat; spectators are refused.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ApplyMoveResponse applyMove(io.github.canastarules.canasta.v1.ApplyMoveRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getApplyMoveMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The hand's score (provisional while the hand is played: then hidden hands
     * count only for the host, and a seat sees its own hand's points alone).
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ScoreHandResponse scoreHand(io.github.canastarules.canasta.v1.ScoreHandRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getScoreHandMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Seat views of a snapshot: any or all for the host, a seat's own for its
     * token, the public view for a spectator.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.GetViewResponse getView(io.github.canastarules.canasta.v1.GetViewRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetViewMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deal the next hand after a hand is over.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.NextDealResponse nextDeal(io.github.canastarules.canasta.v1.NextDealRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getNextDealMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Start a game from a position in the text notation (docs/notation.md).
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ImportPositionResponse importPosition(io.github.canastarules.canasta.v1.ImportPositionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getImportPositionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The whole position of a snapshot in the text notation (reveals every hand):
     * the host alone, as CANASTA_EXPORT_POLICY allows.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ExportPositionResponse exportPosition(io.github.canastarules.canasta.v1.ExportPositionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getExportPositionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A legal move chosen by a bot (not applied), from what the moving seat
     * may know only: for the awaited seat (host) or the caller's own seat.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.SuggestMoveResponse suggestMove(io.github.canastarules.canasta.v1.SuggestMoveRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSuggestMoveMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service CanastaEngine.
   * <pre>
   * The stateless Canasta rules engine. Every call carries the game as an
   * opaque sealed snapshot (AES-256-GCM) and every state change answers with the
   * next snapshot plus what the caller may see. Errors are google.rpc.Status with
   * an ErrorInfo whose `reason` is a stable code (docs/api.md).
   * Credentials: Deal, NextDeal (for the host) and ImportPosition answer a
   * `host_token` and one `seat_tokens` entry per seat. A call presents one of
   * them as `authorization: Bearer &lt;token&gt;` (gRPC metadata or the HTTP header).
   * The host token acts for any seat and sees everything; a seat token acts and
   * sees as its seat only; a call without one is a spectator's, who sees the
   * public table and may not act (docs/security.md has the table per RPC).
   * </pre>
   */
  public static final class CanastaEngineBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<CanastaEngineBlockingStub> {
    private CanastaEngineBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CanastaEngineBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CanastaEngineBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * The games this server plays, with their options.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ListVariantsResponse listVariants(io.github.canastarules.canasta.v1.ListVariantsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListVariantsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deal the first hand of a new game.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.DealResponse deal(io.github.canastarules.canasta.v1.DealRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDealMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The legal moves of the seat whose move is due (host), or of the caller's
     * seat when it may act (seat token). Spectators are refused.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.LegalMovesResponse legalMoves(io.github.canastarules.canasta.v1.LegalMovesRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getLegalMovesMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Apply one move; answers the next snapshot. The host acts for any seat, a
     * seat token only for its seat; spectators are refused.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ApplyMoveResponse applyMove(io.github.canastarules.canasta.v1.ApplyMoveRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getApplyMoveMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The hand's score (provisional while the hand is played: then hidden hands
     * count only for the host, and a seat sees its own hand's points alone).
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ScoreHandResponse scoreHand(io.github.canastarules.canasta.v1.ScoreHandRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getScoreHandMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Seat views of a snapshot: any or all for the host, a seat's own for its
     * token, the public view for a spectator.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.GetViewResponse getView(io.github.canastarules.canasta.v1.GetViewRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetViewMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Deal the next hand after a hand is over.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.NextDealResponse nextDeal(io.github.canastarules.canasta.v1.NextDealRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getNextDealMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Start a game from a position in the text notation (docs/notation.md).
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ImportPositionResponse importPosition(io.github.canastarules.canasta.v1.ImportPositionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getImportPositionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * The whole position of a snapshot in the text notation (reveals every hand):
     * the host alone, as CANASTA_EXPORT_POLICY allows.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.ExportPositionResponse exportPosition(io.github.canastarules.canasta.v1.ExportPositionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getExportPositionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * A legal move chosen by a bot (not applied), from what the moving seat
     * may know only: for the awaited seat (host) or the caller's own seat.
     * </pre>
     */
    public io.github.canastarules.canasta.v1.SuggestMoveResponse suggestMove(io.github.canastarules.canasta.v1.SuggestMoveRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSuggestMoveMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service CanastaEngine.
   * <pre>
   * The stateless Canasta rules engine. Every call carries the game as an
   * opaque sealed snapshot (AES-256-GCM) and every state change answers with the
   * next snapshot plus what the caller may see. Errors are google.rpc.Status with
   * an ErrorInfo whose `reason` is a stable code (docs/api.md).
   * Credentials: Deal, NextDeal (for the host) and ImportPosition answer a
   * `host_token` and one `seat_tokens` entry per seat. A call presents one of
   * them as `authorization: Bearer &lt;token&gt;` (gRPC metadata or the HTTP header).
   * The host token acts for any seat and sees everything; a seat token acts and
   * sees as its seat only; a call without one is a spectator's, who sees the
   * public table and may not act (docs/security.md has the table per RPC).
   * </pre>
   */
  public static final class CanastaEngineFutureStub
      extends io.grpc.stub.AbstractFutureStub<CanastaEngineFutureStub> {
    private CanastaEngineFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected CanastaEngineFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new CanastaEngineFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * The games this server plays, with their options.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.ListVariantsResponse> listVariants(
        io.github.canastarules.canasta.v1.ListVariantsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListVariantsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Deal the first hand of a new game.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.DealResponse> deal(
        io.github.canastarules.canasta.v1.DealRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDealMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The legal moves of the seat whose move is due (host), or of the caller's
     * seat when it may act (seat token). Spectators are refused.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.LegalMovesResponse> legalMoves(
        io.github.canastarules.canasta.v1.LegalMovesRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getLegalMovesMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Apply one move; answers the next snapshot. The host acts for any seat, a
     * seat token only for its seat; spectators are refused.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.ApplyMoveResponse> applyMove(
        io.github.canastarules.canasta.v1.ApplyMoveRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getApplyMoveMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The hand's score (provisional while the hand is played: then hidden hands
     * count only for the host, and a seat sees its own hand's points alone).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.ScoreHandResponse> scoreHand(
        io.github.canastarules.canasta.v1.ScoreHandRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getScoreHandMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Seat views of a snapshot: any or all for the host, a seat's own for its
     * token, the public view for a spectator.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.GetViewResponse> getView(
        io.github.canastarules.canasta.v1.GetViewRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetViewMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Deal the next hand after a hand is over.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.NextDealResponse> nextDeal(
        io.github.canastarules.canasta.v1.NextDealRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getNextDealMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * Start a game from a position in the text notation (docs/notation.md).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.ImportPositionResponse> importPosition(
        io.github.canastarules.canasta.v1.ImportPositionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getImportPositionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * The whole position of a snapshot in the text notation (reveals every hand):
     * the host alone, as CANASTA_EXPORT_POLICY allows.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.ExportPositionResponse> exportPosition(
        io.github.canastarules.canasta.v1.ExportPositionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getExportPositionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * A legal move chosen by a bot (not applied), from what the moving seat
     * may know only: for the awaited seat (host) or the caller's own seat.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<io.github.canastarules.canasta.v1.SuggestMoveResponse> suggestMove(
        io.github.canastarules.canasta.v1.SuggestMoveRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSuggestMoveMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_VARIANTS = 0;
  private static final int METHODID_DEAL = 1;
  private static final int METHODID_LEGAL_MOVES = 2;
  private static final int METHODID_APPLY_MOVE = 3;
  private static final int METHODID_SCORE_HAND = 4;
  private static final int METHODID_GET_VIEW = 5;
  private static final int METHODID_NEXT_DEAL = 6;
  private static final int METHODID_IMPORT_POSITION = 7;
  private static final int METHODID_EXPORT_POSITION = 8;
  private static final int METHODID_SUGGEST_MOVE = 9;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AsyncService serviceImpl;
    private final int methodId;

    MethodHandlers(AsyncService serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_LIST_VARIANTS:
          serviceImpl.listVariants((io.github.canastarules.canasta.v1.ListVariantsRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ListVariantsResponse>) responseObserver);
          break;
        case METHODID_DEAL:
          serviceImpl.deal((io.github.canastarules.canasta.v1.DealRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.DealResponse>) responseObserver);
          break;
        case METHODID_LEGAL_MOVES:
          serviceImpl.legalMoves((io.github.canastarules.canasta.v1.LegalMovesRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.LegalMovesResponse>) responseObserver);
          break;
        case METHODID_APPLY_MOVE:
          serviceImpl.applyMove((io.github.canastarules.canasta.v1.ApplyMoveRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ApplyMoveResponse>) responseObserver);
          break;
        case METHODID_SCORE_HAND:
          serviceImpl.scoreHand((io.github.canastarules.canasta.v1.ScoreHandRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ScoreHandResponse>) responseObserver);
          break;
        case METHODID_GET_VIEW:
          serviceImpl.getView((io.github.canastarules.canasta.v1.GetViewRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.GetViewResponse>) responseObserver);
          break;
        case METHODID_NEXT_DEAL:
          serviceImpl.nextDeal((io.github.canastarules.canasta.v1.NextDealRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.NextDealResponse>) responseObserver);
          break;
        case METHODID_IMPORT_POSITION:
          serviceImpl.importPosition((io.github.canastarules.canasta.v1.ImportPositionRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ImportPositionResponse>) responseObserver);
          break;
        case METHODID_EXPORT_POSITION:
          serviceImpl.exportPosition((io.github.canastarules.canasta.v1.ExportPositionRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.ExportPositionResponse>) responseObserver);
          break;
        case METHODID_SUGGEST_MOVE:
          serviceImpl.suggestMove((io.github.canastarules.canasta.v1.SuggestMoveRequest) request,
              (io.grpc.stub.StreamObserver<io.github.canastarules.canasta.v1.SuggestMoveResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getListVariantsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.ListVariantsRequest,
              io.github.canastarules.canasta.v1.ListVariantsResponse>(
                service, METHODID_LIST_VARIANTS)))
        .addMethod(
          getDealMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.DealRequest,
              io.github.canastarules.canasta.v1.DealResponse>(
                service, METHODID_DEAL)))
        .addMethod(
          getLegalMovesMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.LegalMovesRequest,
              io.github.canastarules.canasta.v1.LegalMovesResponse>(
                service, METHODID_LEGAL_MOVES)))
        .addMethod(
          getApplyMoveMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.ApplyMoveRequest,
              io.github.canastarules.canasta.v1.ApplyMoveResponse>(
                service, METHODID_APPLY_MOVE)))
        .addMethod(
          getScoreHandMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.ScoreHandRequest,
              io.github.canastarules.canasta.v1.ScoreHandResponse>(
                service, METHODID_SCORE_HAND)))
        .addMethod(
          getGetViewMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.GetViewRequest,
              io.github.canastarules.canasta.v1.GetViewResponse>(
                service, METHODID_GET_VIEW)))
        .addMethod(
          getNextDealMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.NextDealRequest,
              io.github.canastarules.canasta.v1.NextDealResponse>(
                service, METHODID_NEXT_DEAL)))
        .addMethod(
          getImportPositionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.ImportPositionRequest,
              io.github.canastarules.canasta.v1.ImportPositionResponse>(
                service, METHODID_IMPORT_POSITION)))
        .addMethod(
          getExportPositionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.ExportPositionRequest,
              io.github.canastarules.canasta.v1.ExportPositionResponse>(
                service, METHODID_EXPORT_POSITION)))
        .addMethod(
          getSuggestMoveMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              io.github.canastarules.canasta.v1.SuggestMoveRequest,
              io.github.canastarules.canasta.v1.SuggestMoveResponse>(
                service, METHODID_SUGGEST_MOVE)))
        .build();
  }

  private static abstract class CanastaEngineBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    CanastaEngineBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return io.github.canastarules.canasta.v1.EngineServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("CanastaEngine");
    }
  }

  private static final class CanastaEngineFileDescriptorSupplier
      extends CanastaEngineBaseDescriptorSupplier {
    CanastaEngineFileDescriptorSupplier() {}
  }

  private static final class CanastaEngineMethodDescriptorSupplier
      extends CanastaEngineBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    CanastaEngineMethodDescriptorSupplier(java.lang.String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (CanastaEngineGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new CanastaEngineFileDescriptorSupplier())
              .addMethod(getListVariantsMethod())
              .addMethod(getDealMethod())
              .addMethod(getLegalMovesMethod())
              .addMethod(getApplyMoveMethod())
              .addMethod(getScoreHandMethod())
              .addMethod(getGetViewMethod())
              .addMethod(getNextDealMethod())
              .addMethod(getImportPositionMethod())
              .addMethod(getExportPositionMethod())
              .addMethod(getSuggestMoveMethod())
              .build();
        }
      }
    }
    return result;
  }
}
