"""Rebuild depinfer/data/csharp/nuget_index.json and nuget_inbox.json.

Sources (public facts only; nothing is copied from any repository):
- Each package's own documentation (its README / docs site / NuGet gallery page): the
  namespaces it declares and the entry-point types or extension methods its docs show
  ("markers": `UseSqlite` for Microsoft.EntityFrameworkCore.Sqlite, `AddJsonFile` for
  Microsoft.Extensions.Configuration.Json, `WriteTo.Console` for Serilog.Sinks.Console).
  The markers are what tell split packages apart when they share one namespace.
- Package popularity tiers (rank 0-100) from the NuGet gallery's public download counts,
  rounded into tiers; only used to choose between packages declaring the same namespace.
- The "latest" column is the newest stable version the package's release notes / gallery
  page listed when the table was last reviewed; the resolver prefers the live registry.
- In-box namespaces: the .NET API browser (learn.microsoft.com/dotnet/api) for which
  assemblies ship in Microsoft.NETCore.App / Microsoft.AspNetCore.App per version, and
  the SDK docs for the implicit usings each project SDK adds.
- Co-occurrence of PackageReference ids with `using`s in public SDK-style projects, read
  as names and counts through a code search, confirmed several namespace rows below.

Table format, one package a line:
    id | rank | kind | namespaces | latest
kind: lib, test (test framework/runner/assertion), analyzer (PrivateAssets=all, no
runtime use), build (MSBuild/tooling package, PrivateAssets=all), sdk-part.
namespaces: `;`-separated; `=` stands for the package id itself; `NS[M1,M2]` means the
package is only chosen for NS when one of the marker identifiers is used in the project.

Also writes depinfer/data/csharp/conventions.json: test-framework conventions from
the `dotnet new xunit|nunit|mstest` templates and each framework's docs, coverlet's docs
for coverage collection, each tool package's docs for where it belongs, and the
dependency lists on the packages' gallery pages (IMPLIED_BY, BROUGHT_BY).

Not a source: the dev benchmark repositories (their manifests are the measurement's
answers); rows seen only there were removed.

Run: python scripts/build_nuget_index.py
"""

from __future__ import annotations

import json

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "csharp"
RULES_OUT = DATA_DIR / "csharp"

PACKAGES = """
Newtonsoft.Json | 100 | lib | =;Newtonsoft.Json.Linq;Newtonsoft.Json.Serialization;Newtonsoft.Json.Converters | 13.0.3
Newtonsoft.Json.Bson | 60 | lib | Newtonsoft.Json.Bson | 1.0.3
Newtonsoft.Json.Schema | 55 | lib | Newtonsoft.Json.Schema | 4.0.1
Serilog | 95 | lib | =;Serilog.Core;Serilog.Events;Serilog.Configuration;Serilog.Context;Serilog.Debugging;Serilog.Formatting;Serilog.Formatting.Display;Serilog.Formatting.Json | 4.3.0
Serilog.AspNetCore | 90 | lib | Serilog.AspNetCore;Serilog[UseSerilogRequestLogging,UseSerilog,Services.AddSerilog,services.AddSerilog,sc.AddSerilog,?.AddSerilog] | 9.0.0
Serilog.Extensions.Hosting | 80 | lib | Serilog.Extensions.Hosting;Serilog[UseSerilog,Services.AddSerilog,services.AddSerilog,sc.AddSerilog,?.AddSerilog,CreateBootstrapLogger] | 9.0.0
Serilog.Extensions.Logging | 85 | lib | Serilog.Extensions.Logging;Serilog[Logging.AddSerilog,logging.AddSerilog,loggingBuilder.AddSerilog,loggerFactory.AddSerilog,builder.AddSerilog,lb.AddSerilog,l.AddSerilog,x.AddSerilog,SerilogLoggerFactory,SerilogLoggerProvider] | 9.0.2
Serilog.Sinks.Console | 90 | lib | Serilog.Sinks.SystemConsole;Serilog.Sinks.SystemConsole.Themes;Serilog[WriteTo.Console,AnsiConsoleTheme,ConsoleTheme] | 6.0.0
Serilog.Sinks.File | 88 | lib | Serilog.Sinks.File;Serilog[WriteTo.File,RollingInterval] | 7.0.0
Serilog.Sinks.Debug | 70 | lib | Serilog.Sinks.Debug;Serilog[WriteTo.Debug] | 3.0.0
Serilog.Sinks.Seq | 75 | lib | Serilog.Sinks.Seq;Serilog[WriteTo.Seq] | 9.0.0
Serilog.Sinks.Async | 70 | lib | Serilog.Sinks.Async;Serilog[WriteTo.Async] | 2.1.0
Serilog.Sinks.InMemory | 40 | test | Serilog.Sinks.InMemory;Serilog[WriteTo.InMemory,InMemorySink] | 0.11.0
Serilog.Sinks.XUnit | 40 | test | Serilog.Sinks.XUnit;Serilog[WriteTo.TestOutput,TestOutput] | 3.0.19
Serilog.Sinks.ApplicationInsights | 60 | lib | Serilog.Sinks.ApplicationInsights;Serilog[WriteTo.ApplicationInsights] | 4.0.0
Serilog.Sinks.OpenTelemetry | 55 | lib | Serilog.Sinks.OpenTelemetry;Serilog[WriteTo.OpenTelemetry] | 4.2.0
Serilog.Settings.Configuration | 85 | lib | Serilog.Settings.Configuration;Serilog[ReadFrom.Configuration] | 9.0.0
Serilog.Formatting.Compact | 80 | lib | Serilog.Formatting.Compact;Serilog.Formatting.Compact.Reader | 3.0.0
Serilog.Expressions | 60 | lib | Serilog.Expressions;Serilog.Templates;Serilog.Templates.Themes;Serilog[ExpressionTemplate,Filter.ByExcluding,Filter.ByIncludingOnly] | 5.0.0
Serilog.Enrichers.Environment | 70 | lib | Serilog.Enrichers;Serilog[WithMachineName,WithEnvironmentName,WithEnvironmentUserName] | 3.0.1
Serilog.Enrichers.Thread | 65 | lib | Serilog.Enrichers.Thread;Serilog[WithThreadId,WithThreadName] | 4.0.0
Serilog.Enrichers.Process | 55 | lib | Serilog[WithProcessId,WithProcessName] | 3.0.0
Serilog.Exceptions | 55 | lib | Serilog.Exceptions;Serilog.Exceptions.Core | 8.4.0
NLog | 88 | lib | =;NLog.Config;NLog.Targets;NLog.Layouts;NLog.Common | 6.0.1
NLog.Web.AspNetCore | 75 | lib | NLog.Web;NLog[UseNLog] | 6.0.1
NLog.Extensions.Logging | 75 | lib | NLog.Extensions.Logging | 6.0.1
log4net | 85 | lib | =;log4net.Config;log4net.Core;log4net.Appender;log4net.Layout;log4net.Repository | 3.1.0
AutoMapper | 92 | lib | =;AutoMapper.QueryableExtensions;AutoMapper.Configuration | 14.0.0
AutoMapper.Extensions.Microsoft.DependencyInjection | 70 | lib | Microsoft.Extensions.DependencyInjection[AddAutoMapper] | 12.0.1
Mapster | 65 | lib | =;Mapster.Utils | 7.4.0
Mapster.DependencyInjection | 45 | lib | MapsterMapper;Mapster.DependencyInjection | 1.0.1
Riok.Mapperly | 55 | lib | Riok.Mapperly.Abstractions | 4.2.1
MediatR | 92 | lib | MediatR[IMediator,ISender,IPublisher,IRequestHandler,INotificationHandler,IPipelineBehavior,IStreamRequestHandler,IStreamPipelineBehavior,RequestHandlerDelegate,AddMediatR,IRequestPreProcessor,IRequestPostProcessor,IRequestExceptionHandler,IRequestExceptionAction];MediatR.Pipeline;MediatR.NotificationPublishers | 12.5.0
MediatR.Contracts | 50 | lib | MediatR[IRequest,INotification,IBaseRequest,IStreamRequest,Unit] | 2.0.1
MediatR.Extensions.Microsoft.DependencyInjection | 60 | lib | MediatR.Extensions.Microsoft.DependencyInjection | 11.1.0
Mediator.Abstractions | 45 | lib | Mediator | 3.0.1
Mediator.SourceGenerator | 45 | analyzer | Mediator[AddMediator] | 3.0.1
FluentValidation | 92 | lib | =;FluentValidation.Results;FluentValidation.Validators;FluentValidation.Internal;FluentValidation.Resources | 12.0.0
FluentValidation.DependencyInjectionExtensions | 80 | lib | FluentValidation[AddValidatorsFromAssembly,AddValidatorsFromAssemblyContaining,AddValidator,AddValidatorsFromAssemblies] | 12.0.0
FluentValidation.AspNetCore | 75 | lib | FluentValidation.AspNetCore | 11.3.1
Dapper | 92 | lib | = | 2.1.66
Dapper.Contrib | 60 | lib | Dapper.Contrib.Extensions | 2.0.78
Polly | 92 | lib | =;Polly.Retry;Polly.CircuitBreaker;Polly.Timeout;Polly.Fallback;Polly.Bulkhead;Polly.Wrap;Polly.Caching | 8.6.1
Polly.Core | 70 | lib | Polly[ResiliencePipeline,ResiliencePipelineBuilder,RetryStrategyOptions] | 8.6.1
Polly.Contrib.WaitAndRetry | 55 | lib | Polly.Contrib.WaitAndRetry | 1.1.1
Microsoft.Extensions.Http.Polly | 75 | lib | Microsoft.Extensions.DependencyInjection[AddPolicyHandler,AddTransientHttpErrorPolicy] | 9.0.7
Microsoft.Extensions.Http.Resilience | 70 | lib | Microsoft.Extensions.Http.Resilience;Microsoft.Extensions.DependencyInjection[AddStandardResilienceHandler,AddResilienceHandler] | 9.7.0
Microsoft.Extensions.Resilience | 55 | lib | Microsoft.Extensions.Resilience | 9.7.0
Microsoft.Extensions.ServiceDiscovery | 60 | lib | Microsoft.Extensions.ServiceDiscovery;Microsoft.Extensions.DependencyInjection[AddServiceDiscovery] | 9.3.1
Swashbuckle.AspNetCore | 92 | lib | Swashbuckle.AspNetCore.SwaggerGen;Swashbuckle.AspNetCore.SwaggerUI;Swashbuckle.AspNetCore.Swagger;Microsoft.Extensions.DependencyInjection[AddSwaggerGen];Microsoft.AspNetCore.Builder[UseSwagger] | 9.0.3
Swashbuckle.AspNetCore.SwaggerUI | 75 | lib | Microsoft.AspNetCore.Builder[UseSwaggerUI] | 9.0.3
Swashbuckle.AspNetCore.Annotations | 70 | lib | Swashbuckle.AspNetCore.Annotations;Microsoft.Extensions.DependencyInjection[EnableAnnotations] | 9.0.3
Swashbuckle.AspNetCore.Filters | 50 | lib | Swashbuckle.AspNetCore.Filters | 9.0.0
Microsoft.OpenApi | 75 | lib | Microsoft.OpenApi.Models;Microsoft.OpenApi;Microsoft.OpenApi.Any;Microsoft.OpenApi.Interfaces | 1.6.24
NSwag.AspNetCore | 70 | lib | NSwag.AspNetCore;NSwag;NSwag.Generation.Processors;NSwag.Generation.Processors.Security | 14.4.0
NSwag.MSBuild | 45 | build | | 14.4.0
Scalar.AspNetCore | 55 | lib | Scalar.AspNetCore | 2.5.6
Microsoft.AspNetCore.OpenApi | 75 | lib | Microsoft.AspNetCore.OpenApi;Microsoft.Extensions.DependencyInjection[AddOpenApi];Microsoft.AspNetCore.Builder[MapOpenApi,WithOpenApi] | 9.0.7
xunit | 95 | test | Xunit;Xunit.Sdk;Xunit.Abstractions | 2.9.3
xunit.v3 | 60 | test | Xunit.v3;Xunit | 2.0.3
xunit.abstractions | 70 | test | Xunit.Abstractions | 2.0.3
xunit.assert | 60 | test | | 2.9.3
xunit.runner.visualstudio | 95 | test | | 3.1.1
xunit.extensibility.core | 50 | test | | 2.9.3
xunit.analyzers | 60 | analyzer | | 1.23.0
FluentAssertions.Analyzers | 40 | analyzer | | 0.34.1
Moq.Analyzers | 25 | analyzer | | 0.3.1
Xunit.SkippableFact | 45 | test | Xunit[SkippableFact,SkippableTheory,Skip.If,Skip.IfNot] | 1.5.23
Xunit.DependencyInjection | 40 | test | Xunit.DependencyInjection | 9.9.1
Meziantou.Xunit.ParallelTestFramework | 30 | test | Meziantou.Xunit | 2.3.0
NUnit | 92 | test | NUnit.Framework;NUnit.Framework.Constraints;NUnit.Framework.Interfaces;NUnit.Framework.Internal | 4.3.2
NUnit3TestAdapter | 90 | test | | 5.0.0
NUnit.Analyzers | 70 | analyzer | | 4.9.2
NUnit.ConsoleRunner | 40 | test | | 3.20.1
MSTest.TestFramework | 90 | test | Microsoft.VisualStudio.TestTools.UnitTesting | 3.9.3
MSTest.TestAdapter | 90 | test | | 3.9.3
MSTest | 60 | test | | 3.9.3
MSTest.Analyzers | 40 | analyzer | | 3.9.3
Microsoft.NET.Test.Sdk | 98 | test | | 17.14.1
Microsoft.TestPlatform.TestHost | 40 | test | | 17.14.1
coverlet.collector | 95 | test | | 6.0.4
coverlet.msbuild | 75 | build | | 6.0.4
GitHubActionsTestLogger | 45 | test | | 2.4.1
JunitXml.TestLogger | 40 | test | | 6.1.0
Moq | 95 | test | =;Moq.Protected;Moq.Language.Flow | 4.20.72
Moq.AutoMock | 45 | test | Moq.AutoMock | 3.5.0
NSubstitute | 88 | test | =;NSubstitute.ExceptionExtensions;NSubstitute.ReturnsExtensions;NSubstitute.Core;NSubstitute.Extensions | 5.3.0
NSubstitute.Analyzers.CSharp | 50 | analyzer | | 1.0.17
FakeItEasy | 75 | test | = | 8.3.0
FluentAssertions | 95 | test | =;FluentAssertions.Execution;FluentAssertions.Extensions;FluentAssertions.Equivalency;FluentAssertions.Primitives;FluentAssertions.Specialized | 8.5.0
FluentAssertions.Web | 35 | test | FluentAssertions.Web | 1.7.0
AwesomeAssertions | 40 | test | =;AwesomeAssertions.Execution;AwesomeAssertions.Extensions;AwesomeAssertions.Equivalency;AwesomeAssertions.Primitives;AwesomeAssertions.Specialized | 9.1.0
Shouldly | 80 | test | = | 4.3.0
AutoFixture | 85 | test | =;AutoFixture.Kernel;AutoFixture.Dsl | 4.18.1
AutoFixture.Xunit2 | 75 | test | AutoFixture.Xunit2 | 4.18.1
AutoFixture.Xunit3 | 30 | test | AutoFixture.Xunit3 | 4.19.0
AutoFixture.AutoMoq | 75 | test | AutoFixture.AutoMoq | 4.18.1
AutoFixture.AutoNSubstitute | 60 | test | AutoFixture.AutoNSubstitute | 4.18.1
AutoFixture.NUnit3 | 55 | test | AutoFixture.NUnit3 | 4.18.1
Bogus | 85 | test | =;Bogus.DataSets;Bogus.Extensions | 35.6.3
Faker.Net | 45 | test | Faker | 2.0.163
Verify.Xunit | 60 | test | VerifyXunit | 30.5.0
Verify.NUnit | 50 | test | VerifyNUnit | 30.5.0
Verify.MSTest | 40 | test | VerifyMSTest | 30.5.0
Respawn | 60 | test | = | 6.2.1
Testcontainers | 75 | test | DotNet.Testcontainers;DotNet.Testcontainers.Builders;DotNet.Testcontainers.Containers;DotNet.Testcontainers.Configurations;Testcontainers | 4.6.0
Testcontainers.MsSql | 60 | test | Testcontainers.MsSql | 4.6.0
Testcontainers.PostgreSql | 60 | test | Testcontainers.PostgreSql | 4.6.0
Testcontainers.MySql | 45 | test | Testcontainers.MySql | 4.6.0
Testcontainers.Redis | 45 | test | Testcontainers.Redis | 4.6.0
Testcontainers.MongoDb | 45 | test | Testcontainers.MongoDb | 4.6.0
Testcontainers.RabbitMq | 40 | test | Testcontainers.RabbitMq | 4.6.0
Testcontainers.Kafka | 35 | test | Testcontainers.Kafka | 4.6.0
Testcontainers.Azurite | 35 | test | Testcontainers.Azurite | 4.6.0
WireMock.Net | 65 | test | WireMock;WireMock.Server;WireMock.RequestBuilders;WireMock.ResponseBuilders;WireMock.Settings | 1.8.13
RichardSzalay.MockHttp | 55 | test | RichardSzalay.MockHttp | 7.0.0
NetArchTest.Rules | 45 | test | NetArchTest.Rules | 1.3.2
TngTech.ArchUnitNET.xUnit | 35 | test | ArchUnitNET.xUnit;ArchUnitNET.Fluent;ArchUnitNET.Loader;ArchUnitNET.Domain | 0.11.4
MartinCostello.Logging.XUnit | 35 | test | MartinCostello.Logging.XUnit;Microsoft.Extensions.Logging[AddXUnit] | 0.6.0
Microsoft.Playwright | 60 | test | Microsoft.Playwright | 1.53.0
Microsoft.Playwright.NUnit | 45 | test | Microsoft.Playwright.NUnit | 1.53.0
Microsoft.Playwright.MSTest | 35 | test | Microsoft.Playwright.MSTest | 1.53.0
Reqnroll | 40 | test | Reqnroll;Reqnroll.Assist | 2.4.1
Reqnroll.NUnit | 35 | test | Reqnroll[Binding,Given,When,Then] | 2.4.1
Reqnroll.xUnit | 35 | test | Reqnroll[Binding,Given,When,Then] | 2.4.1
SpecFlow.NUnit | 40 | test | TechTalk.SpecFlow | 3.9.74
Selenium.WebDriver | 70 | test | OpenQA.Selenium;OpenQA.Selenium.Chrome;OpenQA.Selenium.Firefox;OpenQA.Selenium.Support.UI | 4.34.0
Microsoft.AspNetCore.Mvc.Testing | 85 | test | Microsoft.AspNetCore.Mvc.Testing | 9.0.7
Microsoft.AspNetCore.TestHost | 75 | test | Microsoft.AspNetCore.TestHost | 9.0.7
Microsoft.EntityFrameworkCore.InMemory | 85 | lib | Microsoft.EntityFrameworkCore[UseInMemoryDatabase,IsInMemory] | 9.0.7
Microsoft.Extensions.TimeProvider.Testing | 40 | test | Microsoft.Extensions.Time.Testing | 9.7.0
Microsoft.Extensions.Diagnostics.Testing | 35 | test | Microsoft.Extensions.Logging.Testing[FakeLogger,FakeLogCollector] | 9.7.0
Microsoft.Reactive.Testing | 35 | test | Microsoft.Reactive.Testing | 6.0.1
TestableIO.System.IO.Abstractions.TestingHelpers | 60 | test | System.IO.Abstractions.TestingHelpers | 22.0.15
System.IO.Abstractions | 70 | lib | System.IO.Abstractions | 22.0.15
BenchmarkDotNet | 85 | lib | =;BenchmarkDotNet.Attributes;BenchmarkDotNet.Running;BenchmarkDotNet.Configs;BenchmarkDotNet.Jobs;BenchmarkDotNet.Columns;BenchmarkDotNet.Diagnosers;BenchmarkDotNet.Exporters;BenchmarkDotNet.Order;BenchmarkDotNet.Reports;BenchmarkDotNet.Engines;BenchmarkDotNet.Loggers;BenchmarkDotNet.Environments;BenchmarkDotNet.Toolchains | 0.15.2
BenchmarkDotNet.Diagnostics.Windows | 40 | lib | BenchmarkDotNet.Diagnostics.Windows | 0.15.2
Castle.Core | 85 | lib | Castle.DynamicProxy;Castle.Core;Castle.Core.Logging | 5.2.1
Autofac | 85 | lib | =;Autofac.Core;Autofac.Builder;Autofac.Features | 8.3.0
Autofac.Extensions.DependencyInjection | 75 | lib | Autofac.Extensions.DependencyInjection | 10.0.0
Scrutor | 70 | lib | Microsoft.Extensions.DependencyInjection[Scan,Decorate,TryDecorate,FromAssemblyOf,FromAssemblies,AddClasses] | 6.1.0
SimpleInjector | 60 | lib | =;SimpleInjector.Lifestyles | 5.5.0
Ninject | 55 | lib | =;Ninject.Modules | 3.3.6
Castle.Windsor | 65 | lib | Castle.Windsor;Castle.MicroKernel;Castle.Facilities | 6.0.0
Lamar | 50 | lib | = | 16.0.0
LightInject | 55 | lib | = | 7.0.1
LightInject.Microsoft.DependencyInjection | 45 | lib | = | 4.0.3
Stashbox | 40 | lib | =;Stashbox.Configuration;Stashbox.Lifetime | 5.21.0
DryIoc.Microsoft.DependencyInjection | 50 | lib | = | 5.0.0
SimpleInjector.Integration.ServiceCollection | 45 | lib | SimpleInjector[AddSimpleInjector,UseSimpleInjector] | 5.4.0
StackExchange.Redis | 88 | lib | = | 2.8.41
Microsoft.Extensions.Caching.StackExchangeRedis | 75 | lib | Microsoft.Extensions.Caching.StackExchangeRedis;Microsoft.Extensions.DependencyInjection[AddStackExchangeRedisCache] | 9.0.7
Microsoft.Extensions.Caching.Hybrid | 45 | lib | Microsoft.Extensions.Caching.Hybrid | 9.7.0
Npgsql | 88 | lib | =;NpgsqlTypes | 9.0.3
Npgsql.EntityFrameworkCore.PostgreSQL | 85 | lib | Npgsql.EntityFrameworkCore.PostgreSQL;Microsoft.EntityFrameworkCore[UseNpgsql];Microsoft.Extensions.DependencyInjection[AddNpgsql] | 9.0.4
Pomelo.EntityFrameworkCore.MySql | 75 | lib | Pomelo.EntityFrameworkCore.MySql;Microsoft.EntityFrameworkCore[UseMySql,ServerVersion] | 9.0.0
MySqlConnector | 75 | lib | = | 2.4.0
MySql.Data | 75 | lib | MySql.Data.MySqlClient | 9.3.0
MongoDB.Driver | 88 | lib | MongoDB.Driver;MongoDB.Driver.Linq;MongoDB.Driver.GridFS | 3.4.0
MongoDB.Bson | 80 | lib | MongoDB.Bson;MongoDB.Bson.Serialization;MongoDB.Bson.Serialization.Attributes | 3.4.0
Microsoft.Data.SqlClient | 90 | lib | = | 6.0.2
System.Data.SqlClient | 85 | lib | =;Microsoft.SqlServer.Server | 4.9.0
Microsoft.Data.Sqlite | 80 | lib | = | 9.0.7
Microsoft.Data.Sqlite.Core | 55 | lib | Microsoft.Data.Sqlite[SqliteConnection] | 9.0.7
System.Data.SQLite | 65 | lib | System.Data.SQLite | 1.0.119
Oracle.ManagedDataAccess.Core | 60 | lib | Oracle.ManagedDataAccess.Client | 23.9.0
Microsoft.EntityFrameworkCore | 95 | lib | =;Microsoft.EntityFrameworkCore.ChangeTracking;Microsoft.EntityFrameworkCore.Storage;Microsoft.EntityFrameworkCore.Infrastructure;Microsoft.EntityFrameworkCore.Metadata;Microsoft.EntityFrameworkCore.Metadata.Builders;Microsoft.EntityFrameworkCore.Diagnostics;Microsoft.EntityFrameworkCore.Query;Microsoft.EntityFrameworkCore.ValueGeneration;Microsoft.EntityFrameworkCore.Storage.ValueConversion;Microsoft.EntityFrameworkCore.Migrations | 9.0.7
Microsoft.EntityFrameworkCore.Abstractions | 50 | lib | Microsoft.EntityFrameworkCore[IndexAttribute,PrimaryKeyAttribute,OwnedAttribute] | 9.0.7
Microsoft.EntityFrameworkCore.Relational | 85 | lib | Microsoft.EntityFrameworkCore.Migrations.Operations;Microsoft.EntityFrameworkCore[ExecuteSqlRaw,ExecuteSqlInterpolated,FromSqlRaw,FromSqlInterpolated,ToTable,HasColumnType,HasColumnName,GetDbConnection,SqlQuery,HasDefaultValueSql,HasComputedColumnSql,HasSchema,HasDefaultSchema,GetTableName,GetSchema,GetSchemaQualifiedTableName,GetColumnName,GetMappedConstraints,GetMappedTableIndexes,GetDefaultTableName,GetDefaultSchema] | 9.0.7
Microsoft.EntityFrameworkCore.SqlServer | 92 | lib | Microsoft.EntityFrameworkCore.SqlServer;Microsoft.EntityFrameworkCore[UseSqlServer,IsClustered,EnableRetryOnFailure,IsSqlServer] | 9.0.7
Microsoft.EntityFrameworkCore.Sqlite | 85 | lib | Microsoft.EntityFrameworkCore.Sqlite;Microsoft.EntityFrameworkCore[UseSqlite,IsSqlite] | 9.0.7
Microsoft.EntityFrameworkCore.Cosmos | 55 | lib | Microsoft.EntityFrameworkCore.Cosmos;Microsoft.EntityFrameworkCore[UseCosmos,ToContainer,HasPartitionKey];Microsoft.Extensions.DependencyInjection[AddCosmos] | 9.0.7
Microsoft.EntityFrameworkCore.Proxies | 55 | lib | Microsoft.EntityFrameworkCore.Proxies;Microsoft.EntityFrameworkCore[UseLazyLoadingProxies] | 9.0.7
Microsoft.EntityFrameworkCore.Design | 92 | build | Microsoft.EntityFrameworkCore.Design | 9.0.7
Microsoft.EntityFrameworkCore.Tools | 90 | build | | 9.0.7
EFCore.BulkExtensions | 60 | lib | EFCore.BulkExtensions | 9.0.1
EFCore.NamingConventions | 50 | lib | Microsoft.EntityFrameworkCore[UseSnakeCaseNamingConvention,UseLowerCaseNamingConvention] | 9.0.0
EntityFramework | 85 | lib | System.Data.Entity;System.Data.Entity.Infrastructure;System.Data.Entity.ModelConfiguration;System.Data.Entity.Migrations | 6.5.1
Microsoft.AspNetCore.Identity.EntityFrameworkCore | 85 | lib | Microsoft.AspNetCore.Identity.EntityFrameworkCore;Microsoft.AspNetCore.Identity[IdentityDbContext,IdentityUser,IdentityRole,AddEntityFrameworkStores];Microsoft.Extensions.DependencyInjection[AddEntityFrameworkStores] | 9.0.7
Microsoft.AspNetCore.Identity.UI | 75 | lib | Microsoft.AspNetCore.Identity.UI;Microsoft.AspNetCore.Identity.UI.Services;Microsoft.Extensions.DependencyInjection[AddDefaultIdentity,AddDefaultUI] | 9.0.7
Microsoft.AspNetCore.Diagnostics.EntityFrameworkCore | 70 | lib | Microsoft.AspNetCore.Builder[UseMigrationsEndPoint];Microsoft.Extensions.DependencyInjection[AddDatabaseDeveloperPageExceptionFilter] | 9.0.7
Microsoft.Extensions.Diagnostics.HealthChecks.EntityFrameworkCore | 60 | lib | Microsoft.Extensions.DependencyInjection[AddDbContextCheck] | 9.0.7
Microsoft.AspNetCore.Authentication.JwtBearer | 90 | lib | Microsoft.AspNetCore.Authentication.JwtBearer;Microsoft.Extensions.DependencyInjection[AddJwtBearer] | 9.0.7
Microsoft.AspNetCore.Authentication.OpenIdConnect | 70 | lib | Microsoft.AspNetCore.Authentication.OpenIdConnect;Microsoft.Extensions.DependencyInjection[AddOpenIdConnect] | 9.0.7
Microsoft.AspNetCore.Authentication.Google | 55 | lib | Microsoft.AspNetCore.Authentication.Google;Microsoft.Extensions.DependencyInjection[AddGoogle] | 9.0.7
Microsoft.AspNetCore.Authentication.MicrosoftAccount | 45 | lib | Microsoft.AspNetCore.Authentication.MicrosoftAccount;Microsoft.Extensions.DependencyInjection[AddMicrosoftAccount] | 9.0.7
Microsoft.AspNetCore.Authentication.Facebook | 45 | lib | Microsoft.AspNetCore.Authentication.Facebook;Microsoft.Extensions.DependencyInjection[AddFacebook] | 9.0.7
Microsoft.AspNetCore.Authentication.Twitter | 35 | lib | Microsoft.AspNetCore.Authentication.Twitter;Microsoft.Extensions.DependencyInjection[AddTwitter] | 9.0.7
Microsoft.AspNetCore.Mvc.NewtonsoftJson | 80 | lib | Microsoft.Extensions.DependencyInjection[AddNewtonsoftJson] | 9.0.7
Microsoft.AspNetCore.JsonPatch | 65 | lib | Microsoft.AspNetCore.JsonPatch;Microsoft.AspNetCore.JsonPatch.Operations | 9.0.7
Microsoft.AspNetCore.Mvc.Razor.RuntimeCompilation | 60 | lib | Microsoft.Extensions.DependencyInjection[AddRazorRuntimeCompilation] | 9.0.7
Microsoft.AspNetCore.SpaServices.Extensions | 60 | lib | Microsoft.AspNetCore.SpaServices;Microsoft.AspNetCore.SpaServices.AngularCli;Microsoft.AspNetCore.SpaServices.ReactDevelopmentServer | 9.0.7
Microsoft.AspNetCore.SpaProxy | 45 | lib | | 9.0.7
Microsoft.AspNetCore.SignalR.Client | 75 | lib | Microsoft.AspNetCore.SignalR.Client | 9.0.7
Microsoft.AspNetCore.SignalR.Protocols.MessagePack | 45 | lib | Microsoft.Extensions.DependencyInjection[AddMessagePackProtocol] | 9.0.7
Microsoft.AspNetCore.Components.WebAssembly | 75 | lib | Microsoft.AspNetCore.Components.WebAssembly.Hosting;Microsoft.AspNetCore.Components.WebAssembly.Http;Microsoft.AspNetCore.Components.WebAssembly.Services;Microsoft.AspNetCore.Components.WebAssembly.Infrastructure | 9.0.7
Microsoft.AspNetCore.Components.WebAssembly.DevServer | 70 | build | | 9.0.7
Microsoft.AspNetCore.Components.WebAssembly.Server | 55 | lib | Microsoft.AspNetCore.Builder[UseBlazorFrameworkFiles,UseWebAssemblyDebugging] | 9.0.7
Microsoft.AspNetCore.Components.WebAssembly.Authentication | 55 | lib | Microsoft.AspNetCore.Components.WebAssembly.Authentication | 9.0.7
Microsoft.AspNetCore.Components.Authorization | 60 | lib | Microsoft.AspNetCore.Components.Authorization | 9.0.7
Microsoft.AspNetCore.Components.Web | 65 | lib | Microsoft.AspNetCore.Components.Web;Microsoft.AspNetCore.Components.Forms;Microsoft.AspNetCore.Components.Routing;Microsoft.AspNetCore.Components.Web.Virtualization | 9.0.7
Microsoft.AspNetCore.Components | 60 | lib | Microsoft.AspNetCore.Components;Microsoft.AspNetCore.Components.Rendering | 9.0.7
Microsoft.AspNetCore.Components.QuickGrid | 40 | lib | Microsoft.AspNetCore.Components.QuickGrid | 9.0.7
Microsoft.AspNetCore.Http.Abstractions | 70 | lib | Microsoft.AspNetCore.Http;Microsoft.AspNetCore.Builder | 2.3.0
Microsoft.AspNetCore.Mvc.Core | 55 | lib | Microsoft.AspNetCore.Mvc | 2.3.0
Microsoft.AspNetCore.Hosting.Abstractions | 45 | lib | Microsoft.AspNetCore.Hosting | 2.3.0
Microsoft.AspNetCore.Http.Features | 40 | lib | Microsoft.AspNetCore.Http.Features | 5.0.17
Microsoft.AspNetCore.DataProtection.StackExchangeRedis | 40 | lib | Microsoft.AspNetCore.DataProtection[PersistKeysToStackExchangeRedis] | 9.0.7
Microsoft.AspNetCore.DataProtection.EntityFrameworkCore | 35 | lib | Microsoft.AspNetCore.DataProtection.EntityFrameworkCore | 9.0.7
Microsoft.AspNetCore.Grpc.JsonTranscoding | 35 | lib | | 9.0.7
Microsoft.AspNetCore.Authentication.Certificate | 35 | lib | Microsoft.AspNetCore.Authentication.Certificate | 9.0.7
Microsoft.AspNetCore.Authentication.Negotiate | 35 | lib | Microsoft.AspNetCore.Authentication.Negotiate | 9.0.7
Microsoft.AspNetCore.HeaderPropagation | 30 | lib | Microsoft.AspNetCore.HeaderPropagation | 9.0.7
Microsoft.AspNetCore.Http.Connections.Client | 40 | lib | Microsoft.AspNetCore.Http.Connections.Client | 9.0.7
Microsoft.AspNetCore.WebUtilities | 45 | lib | Microsoft.AspNetCore.WebUtilities | 9.0.0
Microsoft.VisualStudio.Web.CodeGeneration.Design | 70 | build | | 9.0.0
Microsoft.Web.LibraryManager.Build | 40 | build | | 3.0.71
Microsoft.TypeScript.MSBuild | 45 | build | | 5.8.3
Microsoft.Extensions.ApiDescription.Server | 40 | build | | 9.0.7
Microsoft.Identity.Web | 70 | lib | Microsoft.Identity.Web;Microsoft.Identity.Web.Resource | 3.10.0
Microsoft.Identity.Web.UI | 45 | lib | Microsoft.Identity.Web.UI | 3.10.0
Microsoft.Identity.Client | 80 | lib | Microsoft.Identity.Client | 4.73.1
Microsoft.IdentityModel.Tokens | 85 | lib | Microsoft.IdentityModel.Tokens | 8.12.1
Microsoft.IdentityModel.JsonWebTokens | 70 | lib | Microsoft.IdentityModel.JsonWebTokens | 8.12.1
Microsoft.IdentityModel.Protocols.OpenIdConnect | 60 | lib | Microsoft.IdentityModel.Protocols.OpenIdConnect;Microsoft.IdentityModel.Protocols | 8.12.1
System.IdentityModel.Tokens.Jwt | 90 | lib | System.IdentityModel.Tokens.Jwt | 8.12.1
IdentityModel | 65 | lib | =;IdentityModel.Client | 7.0.0
Duende.IdentityServer | 55 | lib | Duende.IdentityServer;Duende.IdentityServer.Models;Duende.IdentityServer.Services;Duende.IdentityServer.Stores | 7.2.4
OpenIddict.AspNetCore | 45 | lib | OpenIddict.Abstractions;OpenIddict.Server.AspNetCore;OpenIddict.Validation.AspNetCore | 6.4.0
BCrypt.Net-Next | 65 | lib | BCrypt.Net | 4.0.3
Microsoft.Extensions.DependencyInjection.Abstractions | 95 | lib | Microsoft.Extensions.DependencyInjection;Microsoft.Extensions.DependencyInjection.Extensions | 9.0.7
Microsoft.Extensions.DependencyInjection | 92 | lib | Microsoft.Extensions.DependencyInjection[ServiceCollection,BuildServiceProvider,ServiceProviderOptions,DefaultServiceProviderFactory] | 9.0.7
Microsoft.Extensions.Logging.Abstractions | 95 | lib | Microsoft.Extensions.Logging;Microsoft.Extensions.Logging.Abstractions | 9.0.7
Microsoft.Extensions.Logging | 92 | lib | Microsoft.Extensions.Logging[LoggerFactory,AddLogging,SetMinimumLevel,ClearProviders,AddFilter] | 9.0.7
Microsoft.Extensions.Logging.Console | 85 | lib | Microsoft.Extensions.Logging.Console;Microsoft.Extensions.Logging[AddConsole,AddSimpleConsole,AddJsonConsole,AddSystemdConsole] | 9.0.7
Microsoft.Extensions.Logging.Debug | 70 | lib | Microsoft.Extensions.Logging.Debug;Microsoft.Extensions.Logging[AddDebug] | 9.0.7
Microsoft.Extensions.Logging.EventLog | 40 | lib | Microsoft.Extensions.Logging.EventLog;Microsoft.Extensions.Logging[AddEventLog] | 9.0.7
Microsoft.Extensions.Logging.Configuration | 50 | lib | Microsoft.Extensions.Logging.Configuration | 9.0.7
Microsoft.Extensions.Configuration.Abstractions | 92 | lib | Microsoft.Extensions.Configuration | 9.0.7
Microsoft.Extensions.Configuration | 90 | lib | Microsoft.Extensions.Configuration[ConfigurationBuilder,AddInMemoryCollection,ConfigurationManager,ConfigurationRoot] | 9.0.7
Microsoft.Extensions.Configuration.Binder | 88 | lib | Microsoft.Extensions.Configuration[GetValue,Bind,Get,BinderOptions] | 9.0.7
Microsoft.Extensions.Configuration.Json | 88 | lib | Microsoft.Extensions.Configuration.Json;Microsoft.Extensions.Configuration[AddJsonFile,AddJsonStream] | 9.0.7
Microsoft.Extensions.Configuration.EnvironmentVariables | 80 | lib | Microsoft.Extensions.Configuration.EnvironmentVariables;Microsoft.Extensions.Configuration[AddEnvironmentVariables] | 9.0.7
Microsoft.Extensions.Configuration.CommandLine | 60 | lib | Microsoft.Extensions.Configuration.CommandLine;Microsoft.Extensions.Configuration[AddCommandLine] | 9.0.7
Microsoft.Extensions.Configuration.UserSecrets | 75 | lib | Microsoft.Extensions.Configuration.UserSecrets;Microsoft.Extensions.Configuration[AddUserSecrets] | 9.0.7
Microsoft.Extensions.Configuration.FileExtensions | 70 | lib | Microsoft.Extensions.Configuration[SetBasePath,SetFileProvider] | 9.0.7
Microsoft.Extensions.Configuration.Ini | 35 | lib | Microsoft.Extensions.Configuration.Ini;Microsoft.Extensions.Configuration[AddIniFile] | 9.0.7
Microsoft.Extensions.Configuration.Xml | 35 | lib | Microsoft.Extensions.Configuration.Xml;Microsoft.Extensions.Configuration[AddXmlFile] | 9.0.7
Azure.Extensions.AspNetCore.Configuration.Secrets | 55 | lib | Azure.Extensions.AspNetCore.Configuration.Secrets;Microsoft.Extensions.Configuration[AddAzureKeyVault] | 1.4.0
Microsoft.Extensions.Options | 90 | lib | Microsoft.Extensions.Options | 9.0.7
Microsoft.Extensions.Options.ConfigurationExtensions | 80 | lib | Microsoft.Extensions.DependencyInjection[BindConfiguration] | 9.0.7
Microsoft.Extensions.Options.DataAnnotations | 45 | lib | Microsoft.Extensions.DependencyInjection[ValidateDataAnnotations] | 9.0.7
Microsoft.Extensions.Hosting.Abstractions | 88 | lib | Microsoft.Extensions.Hosting;Microsoft.Extensions.Hosting.Abstractions | 9.0.7
Microsoft.Extensions.Hosting | 90 | lib | Microsoft.Extensions.Hosting[Host,HostBuilder,CreateDefaultBuilder,CreateApplicationBuilder,HostApplicationBuilder,ConfigureHostConfiguration,UseConsoleLifetime,RunConsoleAsync] | 9.0.7
Microsoft.Extensions.Hosting.WindowsServices | 55 | lib | Microsoft.Extensions.Hosting.WindowsServices;Microsoft.Extensions.Hosting[UseWindowsService,AddWindowsService] | 9.0.7
Microsoft.Extensions.Hosting.Systemd | 40 | lib | Microsoft.Extensions.Hosting.Systemd;Microsoft.Extensions.Hosting[UseSystemd,AddSystemd] | 9.0.7
Microsoft.Extensions.Http | 88 | lib | Microsoft.Extensions.Http;Microsoft.Extensions.DependencyInjection[AddHttpClient,IHttpClientFactory];System.Net.Http[IHttpClientFactory] | 9.0.7
Microsoft.Extensions.Caching.Abstractions | 75 | lib | Microsoft.Extensions.Caching.Distributed;Microsoft.Extensions.Caching.Memory | 9.0.7
Microsoft.Extensions.Caching.Memory | 88 | lib | Microsoft.Extensions.Caching.Memory[MemoryCache,MemoryCacheOptions,AddMemoryCache];Microsoft.Extensions.DependencyInjection[AddMemoryCache] | 9.0.7
Microsoft.Extensions.Primitives | 70 | lib | Microsoft.Extensions.Primitives | 9.0.7
Microsoft.Extensions.FileProviders.Abstractions | 60 | lib | Microsoft.Extensions.FileProviders | 9.0.7
Microsoft.Extensions.FileProviders.Physical | 55 | lib | Microsoft.Extensions.FileProviders.Physical;Microsoft.Extensions.FileProviders[PhysicalFileProvider] | 9.0.7
Microsoft.Extensions.FileProviders.Embedded | 45 | lib | Microsoft.Extensions.FileProviders[EmbeddedFileProvider,ManifestEmbeddedFileProvider] | 9.0.7
Microsoft.Extensions.FileSystemGlobbing | 55 | lib | Microsoft.Extensions.FileSystemGlobbing;Microsoft.Extensions.FileSystemGlobbing.Abstractions | 9.0.7
Microsoft.Extensions.Diagnostics.HealthChecks | 70 | lib | Microsoft.Extensions.Diagnostics.HealthChecks[AddHealthChecks,HealthCheckService];Microsoft.Extensions.DependencyInjection[AddHealthChecks] | 9.0.7
Microsoft.Extensions.Diagnostics.HealthChecks.Abstractions | 65 | lib | Microsoft.Extensions.Diagnostics.HealthChecks | 9.0.7
Microsoft.Extensions.Localization | 55 | lib | Microsoft.Extensions.Localization | 9.0.7
Microsoft.Extensions.ObjectPool | 60 | lib | Microsoft.Extensions.ObjectPool | 9.0.7
Microsoft.Extensions.DependencyModel | 65 | lib | Microsoft.Extensions.DependencyModel | 9.0.7
Microsoft.Extensions.Identity.Core | 55 | lib | Microsoft.AspNetCore.Identity | 9.0.7
Microsoft.Extensions.Identity.Stores | 50 | lib | Microsoft.AspNetCore.Identity[IdentityUser,IdentityRole,IdentityUserClaim,IdentityUserRole] | 9.0.7
Microsoft.Extensions.AI | 40 | lib | Microsoft.Extensions.AI | 9.7.1
Microsoft.Bcl.AsyncInterfaces | 85 | lib | | 9.0.7
Microsoft.Bcl.HashCode | 50 | lib | | 6.0.0
Microsoft.Bcl.TimeProvider | 40 | lib | | 9.0.7
Microsoft.CSharp | 85 | lib | Microsoft.CSharp.RuntimeBinder;Microsoft.CSharp[dynamic] | 4.7.0
Microsoft.Win32.Registry | 65 | lib | | 5.0.0
Microsoft.CodeAnalysis.CSharp | 85 | lib | Microsoft.CodeAnalysis.CSharp;Microsoft.CodeAnalysis.CSharp.Syntax;Microsoft.CodeAnalysis;Microsoft.CodeAnalysis.Text;Microsoft.CodeAnalysis.Diagnostics;Microsoft.CodeAnalysis.Operations | 4.14.0
Microsoft.CodeAnalysis.Common | 70 | lib | Microsoft.CodeAnalysis[ISourceGenerator,IncrementalGeneratorInitializationContext] | 4.14.0
Microsoft.CodeAnalysis.CSharp.Workspaces | 60 | lib | Microsoft.CodeAnalysis.CSharp.Formatting;Microsoft.CodeAnalysis.Formatting;Microsoft.CodeAnalysis.CodeFixes;Microsoft.CodeAnalysis.CodeActions;Microsoft.CodeAnalysis.Editing | 4.14.0
Microsoft.CodeAnalysis.Analyzers | 65 | analyzer | | 3.11.0
Microsoft.CodeAnalysis.NetAnalyzers | 65 | analyzer | | 9.0.0
Microsoft.CodeAnalysis.PublicApiAnalyzers | 45 | analyzer | | 3.3.4
Microsoft.CodeAnalysis.BannedApiAnalyzers | 40 | analyzer | | 3.3.4
Microsoft.VisualStudio.Threading.Analyzers | 55 | analyzer | | 17.14.15
Microsoft.VisualStudio.Threading | 60 | lib | Microsoft.VisualStudio.Threading | 17.14.15
StyleCop.Analyzers | 80 | analyzer | | 1.1.118
SonarAnalyzer.CSharp | 70 | analyzer | | 10.15.0.120848
Roslynator.Analyzers | 60 | analyzer | | 4.13.1
Meziantou.Analyzer | 55 | analyzer | | 2.0.201
CSharpier.MsBuild | 40 | build | | 1.0.3
IDisposableAnalyzers | 40 | analyzer | | 4.0.8
AsyncFixer | 40 | analyzer | | 1.6.0
ConfigureAwaitChecker.Analyzer | 30 | analyzer | | 5.0.1
Microsoft.SourceLink.GitHub | 80 | build | | 8.0.0
Microsoft.SourceLink.AzureRepos.Git | 45 | build | | 8.0.0
DotNet.ReproducibleBuilds | 40 | build | | 1.2.25
MinVer | 55 | build | | 6.0.0
Nerdbank.GitVersioning | 60 | build | | 3.7.115
GitVersion.MsBuild | 45 | build | | 6.3.0
PolySharp | 55 | analyzer | | 1.15.0
Polyfill | 40 | analyzer | | 8.7.2
PolyShim | 30 | analyzer | | 2.6.1
JetBrains.Annotations | 80 | lib | JetBrains.Annotations | 2025.2.0
Nullable | 40 | analyzer | | 1.3.1
IsExternalInit | 35 | analyzer | | 1.0.3
System.Memory | 92 | lib | | 4.6.3
System.Buffers | 85 | lib | | 4.6.1
System.Threading.Tasks.Extensions | 88 | lib | | 4.6.3
System.ValueTuple | 80 | lib | | 4.6.1
System.Text.Json | 92 | lib | System.Text.Json;System.Text.Json.Serialization;System.Text.Json.Nodes | 9.0.7
System.Text.Encodings.Web | 80 | lib | System.Text.Encodings.Web | 9.0.7
System.Collections.Immutable | 85 | lib | System.Collections.Immutable | 9.0.7
System.Threading.Channels | 75 | lib | System.Threading.Channels | 9.0.7
System.IO.Pipelines | 70 | lib | System.IO.Pipelines | 9.0.7
System.Reflection.Metadata | 70 | lib | System.Reflection.Metadata;System.Reflection.PortableExecutable | 9.0.7
System.Diagnostics.DiagnosticSource | 80 | lib | System.Diagnostics[Activity,ActivitySource,DiagnosticListener,Meter] | 9.0.7
System.ComponentModel.Annotations | 80 | lib | System.ComponentModel.DataAnnotations;System.ComponentModel.DataAnnotations.Schema | 5.0.0
System.Net.Http.Json | 60 | lib | System.Net.Http.Json | 9.0.7
System.Threading.Tasks.Dataflow | 55 | lib | System.Threading.Tasks.Dataflow | 9.0.7
System.Formats.Asn1 | 50 | lib | System.Formats.Asn1 | 9.0.7
System.IO.Hashing | 45 | lib | System.IO.Hashing | 9.0.7
System.Runtime.CompilerServices.Unsafe | 80 | lib | | 6.1.2
System.Configuration.ConfigurationManager | 85 | lib | System.Configuration | 9.0.7
System.Drawing.Common | 80 | lib | System.Drawing;System.Drawing.Imaging;System.Drawing.Drawing2D;System.Drawing.Text | 9.0.7
System.Management | 60 | lib | System.Management | 9.0.7
System.DirectoryServices | 50 | lib | System.DirectoryServices | 9.0.7
System.DirectoryServices.AccountManagement | 45 | lib | System.DirectoryServices.AccountManagement | 9.0.7
System.IO.Ports | 50 | lib | System.IO.Ports | 9.0.7
System.ServiceProcess.ServiceController | 50 | lib | System.ServiceProcess | 9.0.7
System.Diagnostics.EventLog | 55 | lib | System.Diagnostics[EventLog,EventLogEntryType] | 9.0.7
System.Diagnostics.PerformanceCounter | 45 | lib | System.Diagnostics[PerformanceCounter,PerformanceCounterCategory] | 9.0.7
System.Security.Cryptography.Pkcs | 55 | lib | System.Security.Cryptography.Pkcs | 9.0.7
System.Security.Cryptography.Xml | 50 | lib | System.Security.Cryptography.Xml | 9.0.7
System.Security.Cryptography.ProtectedData | 55 | lib | System.Security.Cryptography[ProtectedData,DataProtectionScope] | 9.0.7
System.Runtime.Caching | 55 | lib | System.Runtime.Caching | 9.0.7
System.Composition | 45 | lib | System.Composition;System.Composition.Hosting | 9.0.7
System.ComponentModel.Composition | 40 | lib | System.ComponentModel.Composition;System.ComponentModel.Composition.Hosting | 9.0.7
System.ServiceModel.Http | 50 | lib | System.ServiceModel;System.ServiceModel.Channels | 8.1.2
System.ServiceModel.Primitives | 50 | lib | System.ServiceModel.Description | 8.1.2
System.CodeDom | 45 | lib | System.CodeDom;System.CodeDom.Compiler | 9.0.7
System.Text.Encoding.CodePages | 70 | lib | | 9.0.7
System.Reactive | 75 | lib | System.Reactive;System.Reactive.Linq;System.Reactive.Subjects;System.Reactive.Disposables;System.Reactive.Concurrency;System.Reactive.Threading.Tasks | 6.0.1
System.Interactive.Async | 45 | lib | | 6.0.3
System.Linq.Async | 65 | lib | System.Linq[ToAsyncEnumerable,SelectAwait,WhereAwait,SelectManyAwait,AggregateAwaitAsync] | 6.0.3
System.Linq.Dynamic.Core | 65 | lib | System.Linq.Dynamic.Core | 1.6.7
System.CommandLine | 70 | lib | System.CommandLine;System.CommandLine.Invocation;System.CommandLine.Parsing;System.CommandLine.Builder;System.CommandLine.Binding;System.CommandLine.Help | 2.0.0
System.Net.Http | 60 | lib | | 4.3.4
CommandLineParser | 75 | lib | CommandLine;CommandLine.Text | 2.9.1
McMaster.Extensions.CommandLineUtils | 55 | lib | McMaster.Extensions.CommandLineUtils | 4.1.1
CliFx | 40 | lib | CliFx;CliFx.Attributes;CliFx.Infrastructure;CliFx.Exceptions | 2.3.6
Spectre.Console | 75 | lib | Spectre.Console;Spectre.Console.Rendering | 0.50.0
Spectre.Console.Cli | 60 | lib | Spectre.Console.Cli | 0.50.0
Cocona | 35 | lib | Cocona | 2.2.0
YamlDotNet | 85 | lib | YamlDotNet.Serialization;YamlDotNet.Serialization.NamingConventions;YamlDotNet.RepresentationModel;YamlDotNet.Core;YamlDotNet.Core.Events | 16.3.0
Tomlyn | 45 | lib | Tomlyn;Tomlyn.Model;Tomlyn.Syntax | 0.19.0
CsvHelper | 85 | lib | CsvHelper;CsvHelper.Configuration;CsvHelper.Configuration.Attributes;CsvHelper.TypeConversion | 33.1.0
HtmlAgilityPack | 85 | lib | HtmlAgilityPack | 1.12.1
AngleSharp | 70 | lib | AngleSharp;AngleSharp.Dom;AngleSharp.Html.Parser;AngleSharp.Html.Dom | 1.3.0
Markdig | 75 | lib | Markdig;Markdig.Syntax;Markdig.Renderers;Markdig.Parsers;Markdig.Extensions | 0.41.3
RestSharp | 85 | lib | RestSharp;RestSharp.Authenticators | 112.1.0
Refit | 75 | lib | Refit | 8.0.0
Refit.HttpClientFactory | 65 | lib | Microsoft.Extensions.DependencyInjection[AddRefitClient] | 8.0.0
Flurl.Http | 70 | lib | Flurl.Http;Flurl.Http.Configuration;Flurl.Http.Testing | 4.0.2
Flurl | 65 | lib | Flurl | 4.0.0
Microsoft.AspNet.WebApi.Client | 80 | lib | System.Net.Http.Formatting;System.Net.Http[ReadAsAsync,PostAsJsonAsync,PutAsJsonAsync] | 6.0.0
Humanizer.Core | 80 | lib | Humanizer;Humanizer.Localisation | 2.14.1
NodaTime | 70 | lib | NodaTime;NodaTime.Text;NodaTime.TimeZones | 3.2.2
MessagePack | 75 | lib | MessagePack;MessagePack.Resolvers;MessagePack.Formatters | 3.1.4
protobuf-net | 70 | lib | ProtoBuf;ProtoBuf.Meta | 3.2.52
Google.Protobuf | 88 | lib | Google.Protobuf;Google.Protobuf.WellKnownTypes;Google.Protobuf.Reflection | 3.31.1
Grpc.Net.Client | 80 | lib | Grpc.Net.Client | 2.71.0
Grpc.AspNetCore | 75 | lib | Grpc.AspNetCore.Server;Microsoft.Extensions.DependencyInjection[AddGrpc] | 2.71.0
Grpc.Core.Api | 60 | lib | Grpc.Core | 2.71.0
Grpc.Tools | 80 | build | | 2.72.0
Grpc.Net.ClientFactory | 60 | lib | Grpc.Net.ClientFactory;Microsoft.Extensions.DependencyInjection[AddGrpcClient] | 2.71.0
Utf8Json | 35 | lib | Utf8Json;Utf8Json.Resolvers;Utf8Json.Formatters | 1.3.7
Jil | 30 | lib | Jil | 2.17.0
ServiceStack.Text | 55 | lib | ServiceStack.Text | 8.8.0
RabbitMQ.Client | 80 | lib | RabbitMQ.Client;RabbitMQ.Client.Events;RabbitMQ.Client.Exceptions | 7.1.2
MassTransit | 70 | lib | MassTransit | 8.4.1
MassTransit.RabbitMQ | 60 | lib | MassTransit[UsingRabbitMq] | 8.4.1
Confluent.Kafka | 75 | lib | Confluent.Kafka;Confluent.Kafka.Admin | 2.10.1
NATS.Client.Core | 40 | lib | NATS.Client.Core | 2.6.3
Hangfire.Core | 70 | lib | Hangfire;Hangfire.Server;Hangfire.States;Hangfire.Storage | 1.8.20
Hangfire.AspNetCore | 60 | lib | Hangfire[AddHangfire,AddHangfireServer,UseHangfireDashboard] | 1.8.20
Hangfire.SqlServer | 55 | lib | Hangfire.SqlServer;Hangfire[UseSqlServerStorage] | 1.8.20
Quartz | 70 | lib | Quartz;Quartz.Impl;Quartz.Spi | 3.14.0
Quartz.Extensions.Hosting | 55 | lib | Microsoft.Extensions.DependencyInjection[AddQuartzHostedService] | 3.14.0
Azure.Identity | 88 | lib | Azure.Identity | 1.14.2
Azure.Core | 85 | lib | Azure;Azure.Core;Azure.Core.Pipeline | 1.47.0
Azure.Storage.Blobs | 85 | lib | Azure.Storage.Blobs;Azure.Storage.Blobs.Models;Azure.Storage.Blobs.Specialized;Azure.Storage.Sas | 12.24.1
Azure.Storage.Queues | 65 | lib | Azure.Storage.Queues;Azure.Storage.Queues.Models | 12.22.0
Azure.Data.Tables | 65 | lib | Azure.Data.Tables | 12.11.0
Azure.Messaging.ServiceBus | 75 | lib | Azure.Messaging.ServiceBus;Azure.Messaging.ServiceBus.Administration | 7.20.1
Azure.Messaging.EventHubs | 60 | lib | Azure.Messaging.EventHubs;Azure.Messaging.EventHubs.Producer;Azure.Messaging.EventHubs.Consumer | 5.12.2
Azure.Security.KeyVault.Secrets | 75 | lib | Azure.Security.KeyVault.Secrets | 4.8.0
Azure.Security.KeyVault.Keys | 55 | lib | Azure.Security.KeyVault.Keys;Azure.Security.KeyVault.Keys.Cryptography | 4.8.0
Microsoft.Azure.Cosmos | 75 | lib | Microsoft.Azure.Cosmos;Microsoft.Azure.Cosmos.Linq | 3.52.1
Microsoft.Azure.Functions.Worker | 70 | lib | Microsoft.Azure.Functions.Worker;Microsoft.Azure.Functions.Worker.Http | 2.0.0
Microsoft.Azure.Functions.Worker.Sdk | 70 | build | | 2.0.5
Microsoft.ApplicationInsights.AspNetCore | 80 | lib | Microsoft.ApplicationInsights.AspNetCore;Microsoft.Extensions.DependencyInjection[AddApplicationInsightsTelemetry] | 2.23.0
Microsoft.ApplicationInsights | 80 | lib | Microsoft.ApplicationInsights;Microsoft.ApplicationInsights.Extensibility;Microsoft.ApplicationInsights.DataContracts;Microsoft.ApplicationInsights.Channel | 2.23.0
Azure.Monitor.OpenTelemetry.AspNetCore | 45 | lib | Azure.Monitor.OpenTelemetry.AspNetCore;OpenTelemetry[UseAzureMonitor] | 1.3.0
AWSSDK.Core | 85 | lib | Amazon;Amazon.Runtime;Amazon.Runtime.CredentialManagement;Amazon.Util | 4.0.0.16
AWSSDK.S3 | 80 | lib | Amazon.S3;Amazon.S3.Model;Amazon.S3.Transfer;Amazon.S3.Util | 4.0.6
AWSSDK.SQS | 65 | lib | Amazon.SQS;Amazon.SQS.Model | 4.0.0.15
AWSSDK.SimpleNotificationService | 55 | lib | Amazon.SimpleNotificationService;Amazon.SimpleNotificationService.Model | 4.0.0.15
AWSSDK.DynamoDBv2 | 65 | lib | Amazon.DynamoDBv2;Amazon.DynamoDBv2.Model;Amazon.DynamoDBv2.DataModel;Amazon.DynamoDBv2.DocumentModel | 4.0.2
AWSSDK.Extensions.NETCore.Setup | 65 | lib | Amazon.Extensions.NETCore.Setup;Microsoft.Extensions.DependencyInjection[AddAWSService,GetAWSOptions] | 4.0.2
Amazon.Lambda.Core | 65 | lib | Amazon.Lambda.Core | 2.5.1
OpenTelemetry | 80 | lib | OpenTelemetry;OpenTelemetry.Trace;OpenTelemetry.Metrics;OpenTelemetry.Logs;OpenTelemetry.Resources | 1.12.0
OpenTelemetry.Extensions.Hosting | 80 | lib | OpenTelemetry[AddOpenTelemetry,WithTracing,WithMetrics];Microsoft.Extensions.DependencyInjection[AddOpenTelemetry] | 1.12.0
OpenTelemetry.Instrumentation.AspNetCore | 78 | lib | OpenTelemetry.Instrumentation.AspNetCore;OpenTelemetry.Trace[AddAspNetCoreInstrumentation];OpenTelemetry.Metrics[AddAspNetCoreInstrumentation] | 1.12.0
OpenTelemetry.Instrumentation.Http | 76 | lib | OpenTelemetry.Instrumentation.Http;OpenTelemetry.Trace[AddHttpClientInstrumentation];OpenTelemetry.Metrics[AddHttpClientInstrumentation] | 1.12.0
OpenTelemetry.Instrumentation.Runtime | 70 | lib | OpenTelemetry.Metrics[AddRuntimeInstrumentation] | 1.12.0
OpenTelemetry.Instrumentation.SqlClient | 50 | lib | OpenTelemetry.Trace[AddSqlClientInstrumentation] | 1.12.0-beta.1
OpenTelemetry.Instrumentation.EntityFrameworkCore | 45 | lib | OpenTelemetry.Trace[AddEntityFrameworkCoreInstrumentation] | 1.12.0-beta.1
OpenTelemetry.Exporter.OpenTelemetryProtocol | 78 | lib | OpenTelemetry.Exporter;OpenTelemetry[UseOtlpExporter];OpenTelemetry.Trace[AddOtlpExporter];OpenTelemetry.Metrics[AddOtlpExporter];OpenTelemetry.Logs[AddOtlpExporter] | 1.12.0
OpenTelemetry.Exporter.Console | 60 | lib | OpenTelemetry.Trace[AddConsoleExporter];OpenTelemetry.Metrics[AddConsoleExporter] | 1.12.0
OpenTelemetry.Exporter.Prometheus.AspNetCore | 50 | lib | OpenTelemetry.Metrics[AddPrometheusExporter];Microsoft.AspNetCore.Builder[MapPrometheusScrapingEndpoint,UseOpenTelemetryPrometheusScrapingEndpoint] | 1.12.0-beta.1
prometheus-net.AspNetCore | 60 | lib | Prometheus[UseHttpMetrics,MapMetrics,UseMetricServer] | 8.2.1
prometheus-net | 65 | lib | Prometheus | 8.2.1
Prometheus.Client | 40 | lib | =;Prometheus.Client.Collectors | 6.1.0
Prometheus.Client.AspNetCore | 35 | lib | = | 6.0.0
Prometheus.Client.HttpRequestDurations | 35 | lib | = | 4.0.0
Sentry.AspNetCore | 60 | lib | Sentry.AspNetCore;Microsoft.AspNetCore.Hosting[UseSentry] | 5.11.2
Sentry | 65 | lib | Sentry | 5.11.2
Aspire.Hosting.AppHost | 60 | lib | Aspire.Hosting[DistributedApplication];Aspire.Hosting.ApplicationModel;Projects | 9.3.1
Aspire.Hosting.SqlServer | 45 | lib | Aspire.Hosting[AddSqlServer] | 9.3.1
Aspire.Hosting.PostgreSQL | 45 | lib | Aspire.Hosting[AddPostgres] | 9.3.1
Aspire.Hosting.Redis | 45 | lib | Aspire.Hosting[AddRedis] | 9.3.1
Aspire.Hosting.RabbitMQ | 35 | lib | Aspire.Hosting[AddRabbitMQ] | 9.3.1
Aspire.Hosting.MongoDB | 30 | lib | Aspire.Hosting[AddMongoDB] | 9.3.1
Aspire.Hosting.NodeJs | 30 | lib | Aspire.Hosting[AddNpmApp,AddNodeApp] | 9.3.1
Aspire.Hosting.Testing | 35 | test | Aspire.Hosting.Testing | 9.3.1
Aspire.Hosting.JavaScript | 30 | lib | Aspire.Hosting[AddJavaScriptApp,AddViteApp] | 13.0.0
Aspire.Hosting.Azure.AppContainers | 30 | lib | Aspire.Hosting[AddAzureContainerAppEnvironment] | 9.3.1
Aspire.Hosting.Azure.PostgreSQL | 30 | lib | Aspire.Hosting[AddAzurePostgresFlexibleServer] | 9.3.1
Aspire.Hosting.Azure.Sql | 30 | lib | Aspire.Hosting[AddAzureSqlServer] | 9.3.1
CommunityToolkit.Aspire.Hosting.SQLite | 25 | lib | Aspire.Hosting[AddSqlite] | 9.4.0
Aspire.Microsoft.EntityFrameworkCore.SqlServer | 40 | lib | Microsoft.Extensions.Hosting[AddSqlServerDbContext,EnrichSqlServerDbContext] | 9.3.1
Aspire.Npgsql.EntityFrameworkCore.PostgreSQL | 40 | lib | Microsoft.Extensions.Hosting[AddNpgsqlDbContext,EnrichNpgsqlDbContext] | 9.3.1
Aspire.Npgsql | 35 | lib | Microsoft.Extensions.Hosting[AddNpgsqlDataSource] | 9.3.1
Aspire.StackExchange.Redis | 35 | lib | Microsoft.Extensions.Hosting[AddRedisClient,AddKeyedRedisClient] | 9.3.1
Aspire.StackExchange.Redis.OutputCaching | 30 | lib | Microsoft.Extensions.Hosting[AddRedisOutputCache] | 9.3.1
Aspire.StackExchange.Redis.DistributedCaching | 30 | lib | Microsoft.Extensions.Hosting[AddRedisDistributedCache] | 9.3.1
Aspire.Microsoft.Data.SqlClient | 35 | lib | Microsoft.Extensions.Hosting[AddSqlServerClient,AddKeyedSqlServerClient] | 9.3.1
Aspire.MySqlConnector | 30 | lib | Microsoft.Extensions.Hosting[AddMySqlDataSource,AddKeyedMySqlDataSource] | 9.3.1
Aspire.Pomelo.EntityFrameworkCore.MySql | 30 | lib | Microsoft.Extensions.Hosting[AddMySqlDbContext,EnrichMySqlDbContext] | 9.3.1
Aspire.Microsoft.EntityFrameworkCore.Cosmos | 30 | lib | Microsoft.Extensions.Hosting[AddCosmosDbContext,EnrichCosmosDbContext] | 9.3.1
Aspire.Microsoft.Azure.Cosmos | 30 | lib | Microsoft.Extensions.Hosting[AddAzureCosmosClient,AddKeyedAzureCosmosClient] | 9.3.1
Aspire.Azure.Storage.Blobs | 35 | lib | Microsoft.Extensions.Hosting[AddAzureBlobClient,AddAzureBlobServiceClient,AddKeyedAzureBlobClient,AddKeyedAzureBlobServiceClient] | 9.3.1
Aspire.Azure.Storage.Queues | 30 | lib | Microsoft.Extensions.Hosting[AddAzureQueueClient,AddAzureQueueServiceClient,AddKeyedAzureQueueClient,AddKeyedAzureQueueServiceClient] | 9.3.1
Aspire.Azure.Data.Tables | 30 | lib | Microsoft.Extensions.Hosting[AddAzureTableClient,AddAzureTableServiceClient,AddKeyedAzureTableClient,AddKeyedAzureTableServiceClient] | 9.3.1
Aspire.Azure.Messaging.ServiceBus | 30 | lib | Microsoft.Extensions.Hosting[AddAzureServiceBusClient,AddKeyedAzureServiceBusClient] | 9.3.1
Aspire.Azure.Messaging.EventHubs | 25 | lib | Microsoft.Extensions.Hosting[AddAzureEventHubProducerClient,AddAzureEventHubConsumerClient,AddAzureEventProcessorClient] | 9.3.1
Aspire.Azure.Security.KeyVault | 30 | lib | Microsoft.Extensions.Hosting[AddAzureKeyVaultClient,AddAzureKeyVaultSecrets,AddKeyedAzureKeyVaultClient];Microsoft.Extensions.Configuration[AddAzureKeyVaultSecrets] | 9.3.1
Aspire.Azure.AI.OpenAI | 30 | lib | Microsoft.Extensions.Hosting[AddAzureOpenAIClient,AddKeyedAzureOpenAIClient] | 9.3.1
Aspire.OpenAI | 25 | lib | Microsoft.Extensions.Hosting[AddOpenAIClient,AddKeyedOpenAIClient] | 9.3.1
Aspire.RabbitMQ.Client | 30 | lib | Microsoft.Extensions.Hosting[AddRabbitMQClient,AddKeyedRabbitMQClient] | 9.3.1
Aspire.MongoDB.Driver | 30 | lib | Microsoft.Extensions.Hosting[AddMongoDBClient,AddKeyedMongoDBClient] | 9.3.1
Aspire.Confluent.Kafka | 25 | lib | Microsoft.Extensions.Hosting[AddKafkaProducer,AddKafkaConsumer,AddKeyedKafkaProducer,AddKeyedKafkaConsumer] | 9.3.1
Aspire.Qdrant.Client | 20 | lib | Microsoft.Extensions.Hosting[AddQdrantClient,AddKeyedQdrantClient] | 9.3.1
Aspire.NATS.Net | 20 | lib | Microsoft.Extensions.Hosting[AddNatsClient,AddKeyedNatsClient] | 9.3.1
Aspire.Seq | 20 | lib | Microsoft.Extensions.Hosting[AddSeqEndpoint] | 9.3.1
Aspire.Elastic.Clients.Elasticsearch | 20 | lib | Microsoft.Extensions.Hosting[AddElasticsearchClient,AddKeyedElasticsearchClient] | 9.3.1
Aspire.Hosting.MySql | 30 | lib | Aspire.Hosting[AddMySql] | 9.3.1
Aspire.Hosting.Kafka | 25 | lib | Aspire.Hosting[AddKafka] | 9.3.1
Aspire.Hosting.Orleans | 25 | lib | Aspire.Hosting[AddOrleans] | 9.3.1
Aspire.Hosting.Docker | 25 | lib | Aspire.Hosting[AddDockerComposeEnvironment] | 9.3.1
Aspire.Hosting.Kubernetes | 20 | lib | Aspire.Hosting[AddKubernetesEnvironment] | 9.3.1
Aspire.Hosting.Python | 25 | lib | Aspire.Hosting[AddPythonApp,AddUvicornApp,AddPythonModule,AddPythonExecutable] | 9.3.1
Aspire.Hosting.Seq | 20 | lib | Aspire.Hosting[AddSeq] | 9.3.1
Aspire.Hosting.Qdrant | 20 | lib | Aspire.Hosting[AddQdrant] | 9.3.1
Aspire.Hosting.Valkey | 20 | lib | Aspire.Hosting[AddValkey] | 9.3.1
Aspire.Hosting.Garnet | 20 | lib | Aspire.Hosting[AddGarnet] | 9.3.1
Aspire.Hosting.Nats | 20 | lib | Aspire.Hosting[AddNats] | 9.3.1
Aspire.Hosting.Elasticsearch | 20 | lib | Aspire.Hosting[AddElasticsearch] | 9.3.1
Aspire.Hosting.Milvus | 15 | lib | Aspire.Hosting[AddMilvus] | 9.3.1
Aspire.Hosting.Oracle | 15 | lib | Aspire.Hosting[AddOracle] | 9.3.1
Aspire.Hosting.Keycloak | 20 | lib | Aspire.Hosting[AddKeycloak] | 9.3.1
Aspire.Hosting.Yarp | 20 | lib | Aspire.Hosting[AddYarp] | 9.3.1
Aspire.Hosting.Azure.Storage | 30 | lib | Aspire.Hosting[AddAzureStorage] | 9.3.1
Aspire.Hosting.Azure.Functions | 25 | lib | Aspire.Hosting[AddAzureFunctionsProject] | 9.3.1
Aspire.Hosting.Azure.ServiceBus | 25 | lib | Aspire.Hosting[AddAzureServiceBus] | 9.3.1
Aspire.Hosting.Azure.EventHubs | 20 | lib | Aspire.Hosting[AddAzureEventHubs] | 9.3.1
Aspire.Hosting.Azure.CosmosDB | 25 | lib | Aspire.Hosting[AddAzureCosmosDB] | 9.3.1
Aspire.Hosting.Azure.KeyVault | 25 | lib | Aspire.Hosting[AddAzureKeyVault] | 9.3.1
Aspire.Hosting.Azure.Redis | 25 | lib | Aspire.Hosting[AddAzureRedis,AddAzureManagedRedis] | 9.3.1
Aspire.Hosting.Azure.ApplicationInsights | 20 | lib | Aspire.Hosting[AddAzureApplicationInsights] | 9.3.1
Aspire.Hosting.Azure.OperationalInsights | 20 | lib | Aspire.Hosting[AddAzureLogAnalyticsWorkspace] | 9.3.1
Aspire.Hosting.Azure.CognitiveServices | 20 | lib | Aspire.Hosting[AddAzureOpenAI] | 9.3.1
Aspire.Hosting.Azure.AppService | 20 | lib | Aspire.Hosting[AddAzureAppServiceEnvironment] | 9.3.1
Aspire.Hosting.Azure.SignalR | 15 | lib | Aspire.Hosting[AddAzureSignalR] | 9.3.1
Aspire.Hosting.Azure.Search | 15 | lib | Aspire.Hosting[AddAzureSearch] | 9.3.1
Yarp.ReverseProxy | 60 | lib | Yarp.ReverseProxy;Yarp.ReverseProxy.Configuration;Yarp.ReverseProxy.Transforms | 2.3.0
Ocelot | 55 | lib | Ocelot.DependencyInjection;Ocelot.Middleware | 24.0.0
Carter | 45 | lib | Carter;Carter.ModelBinding;Carter.Response | 9.0.0
FastEndpoints | 55 | lib | FastEndpoints | 6.2.0
FastEndpoints.Swagger | 45 | lib | FastEndpoints.Swagger | 6.2.0
FastEndpoints.Testing | 30 | test | FastEndpoints.Testing | 6.2.0
Ardalis.GuardClauses | 70 | lib | Ardalis.GuardClauses | 5.0.0
Ardalis.Result | 55 | lib | Ardalis.Result | 10.1.0
Ardalis.Result.AspNetCore | 45 | lib | Ardalis.Result.AspNetCore | 10.1.0
Ardalis.Specification | 60 | lib | Ardalis.Specification | 9.2.0
Ardalis.Specification.EntityFrameworkCore | 55 | lib | Ardalis.Specification.EntityFrameworkCore | 9.2.0
Ardalis.SmartEnum | 55 | lib | Ardalis.SmartEnum | 8.2.0
Ardalis.SharedKernel | 35 | lib | Ardalis.SharedKernel | 3.0.0
Ardalis.ApiEndpoints | 45 | lib | Ardalis.ApiEndpoints | 4.1.0
Ardalis.ListStartupServices | 35 | lib | Ardalis.ListStartupServices | 1.1.4
Vogen | 45 | analyzer | Vogen[ValueObject] | 7.0.4
OneOf | 60 | lib | OneOf;OneOf.Types | 3.0.271
ErrorOr | 55 | lib | ErrorOr | 2.0.1
FluentResults | 55 | lib | FluentResults | 4.0.0
LanguageExt.Core | 50 | lib | LanguageExt;LanguageExt.Common | 4.4.9
Stateless | 55 | lib | Stateless | 5.19.0
SixLabors.ImageSharp | 75 | lib | SixLabors.ImageSharp;SixLabors.ImageSharp.Processing;SixLabors.ImageSharp.Formats;SixLabors.ImageSharp.PixelFormats | 3.1.10
SkiaSharp | 70 | lib | SkiaSharp | 3.119.0
QuestPDF | 55 | lib | QuestPDF;QuestPDF.Fluent;QuestPDF.Helpers;QuestPDF.Infrastructure | 2025.7.0
ClosedXML | 65 | lib | ClosedXML;ClosedXML.Excel | 0.105.0
EPPlus | 70 | lib | OfficeOpenXml | 8.0.8
DocumentFormat.OpenXml | 75 | lib | DocumentFormat.OpenXml;DocumentFormat.OpenXml.Packaging;DocumentFormat.OpenXml.Spreadsheet;DocumentFormat.OpenXml.Wordprocessing | 3.3.0
NPOI | 65 | lib | NPOI;NPOI.SS.UserModel;NPOI.XSSF.UserModel;NPOI.HSSF.UserModel | 2.7.4
MailKit | 75 | lib | MailKit;MailKit.Net.Smtp;MailKit.Security;MailKit.Net.Imap | 4.13.0
MimeKit | 75 | lib | MimeKit;MimeKit.Text | 4.13.0
SendGrid | 60 | lib | SendGrid;SendGrid.Helpers.Mail | 9.29.3
Twilio | 55 | lib | Twilio;Twilio.Rest.Api.V2010.Account;Twilio.Types | 7.12.0
Stripe.net | 60 | lib | Stripe;Stripe.Checkout | 48.4.0
Octokit | 65 | lib | Octokit | 14.0.0
LibGit2Sharp | 60 | lib | LibGit2Sharp | 0.31.0
Docker.DotNet | 55 | lib | Docker.DotNet;Docker.DotNet.Models | 3.125.15
NuGet.Versioning | 70 | lib | NuGet.Versioning | 6.14.0
NuGet.Frameworks | 65 | lib | NuGet.Frameworks | 6.14.0
NuGet.Protocol | 60 | lib | NuGet.Protocol;NuGet.Protocol.Core.Types;NuGet.Common;NuGet.Configuration | 6.14.0
NuGet.ProjectModel | 45 | lib | NuGet.ProjectModel;NuGet.LibraryModel;NuGet.DependencyResolver | 6.14.0
NuGet.Packaging | 55 | lib | NuGet.Packaging;NuGet.Packaging.Core | 6.14.0
Microsoft.Build | 60 | lib | Microsoft.Build.Evaluation;Microsoft.Build.Execution;Microsoft.Build.Construction | 17.14.8
Microsoft.Build.Framework | 60 | lib | Microsoft.Build.Framework | 17.14.8
Microsoft.Build.Utilities.Core | 60 | lib | Microsoft.Build.Utilities | 17.14.8
Microsoft.Build.Locator | 50 | lib | Microsoft.Build.Locator | 1.9.1
Mono.Cecil | 65 | lib | Mono.Cecil;Mono.Cecil.Cil;Mono.Cecil.Rocks | 0.11.6
ICSharpCode.Decompiler | 45 | lib | ICSharpCode.Decompiler | 9.1.0.7988
SharpZipLib | 70 | lib | ICSharpCode.SharpZipLib.Zip;ICSharpCode.SharpZipLib.GZip;ICSharpCode.SharpZipLib.Tar;ICSharpCode.SharpZipLib.Core | 1.4.2
K4os.Compression.LZ4 | 55 | lib | K4os.Compression.LZ4 | 1.3.8
ZstdSharp.Port | 45 | lib | ZstdSharp | 0.8.6
Microsoft.IO.RecyclableMemoryStream | 65 | lib | Microsoft.IO | 3.0.1
Nito.AsyncEx | 60 | lib | Nito.AsyncEx | 5.1.2
Nito.AsyncEx.Coordination | 45 | lib | Nito.AsyncEx[AsyncLock,AsyncManualResetEvent,AsyncSemaphore,AsyncReaderWriterLock] | 5.1.2
AsyncKeyedLock | 35 | lib | AsyncKeyedLock | 7.1.6
Ben.Demystifier | 45 | lib | | 0.4.1
Jint | 50 | lib | Jint;Jint.Native | 4.3.0
NCalc | 40 | lib | NCalc | 1.3.8
Antlr4.Runtime.Standard | 50 | lib | Antlr4.Runtime;Antlr4.Runtime.Tree;Antlr4.Runtime.Misc | 4.13.1
Sprache | 40 | lib | Sprache | 2.3.1
Superpower | 35 | lib | Superpower;Superpower.Parsers;Superpower.Model | 3.0.0
Pidgin | 30 | lib | Pidgin | 3.3.0
Scriban | 50 | lib | Scriban;Scriban.Runtime | 6.2.1
RazorLight | 40 | lib | RazorLight | 2.3.1
Handlebars.Net | 45 | lib | HandlebarsDotNet | 2.1.6
Bullseye | 40 | lib | Bullseye;Bullseye.Targets | 6.0.0
SimpleExec | 40 | lib | SimpleExec | 12.0.0
Cake.Frosting | 40 | lib | Cake.Frosting;Cake.Core;Cake.Common | 5.0.0
Nuke.Common | 45 | lib | Nuke.Common;Nuke.Common.Tools.DotNet;Nuke.Common.IO;Nuke.Common.ProjectModel | 9.0.4
CommunityToolkit.Mvvm | 70 | lib | CommunityToolkit.Mvvm.ComponentModel;CommunityToolkit.Mvvm.Input;CommunityToolkit.Mvvm.Messaging | 8.4.0
CommunityToolkit.Maui | 50 | lib | CommunityToolkit.Maui | 12.1.0
CommunityToolkit.HighPerformance | 45 | lib | CommunityToolkit.HighPerformance;CommunityToolkit.HighPerformance.Buffers | 8.4.0
CommunityToolkit.Diagnostics | 40 | lib | CommunityToolkit.Diagnostics | 8.4.0
Avalonia | 65 | lib | Avalonia;Avalonia.Controls;Avalonia.Markup.Xaml;Avalonia.Media;Avalonia.Threading;Avalonia.Data | 11.3.2
Avalonia.Desktop | 60 | lib | Avalonia[UsePlatformDetect,StartWithClassicDesktopLifetime] | 11.3.2
Avalonia.Themes.Fluent | 55 | lib | Avalonia.Themes.Fluent;Avalonia[FluentTheme] | 11.3.2
ReactiveUI | 60 | lib | ReactiveUI | 20.4.1
Prism.Core | 55 | lib | Prism;Prism.Mvvm;Prism.Commands;Prism.Events | 9.0.537
MahApps.Metro | 55 | lib | MahApps.Metro;MahApps.Metro.Controls | 2.4.10
MudBlazor | 60 | lib | MudBlazor;MudBlazor.Services | 8.9.0
Blazored.LocalStorage | 55 | lib | Blazored.LocalStorage | 4.5.0
Blazored.SessionStorage | 40 | lib | Blazored.SessionStorage | 2.4.0
Radzen.Blazor | 50 | lib | Radzen;Radzen.Blazor | 7.1.5
Fluxor | 35 | lib | Fluxor | 6.6.0
Microsoft.Maui.Controls | 65 | lib | Microsoft.Maui.Controls;Microsoft.Maui.Hosting;Microsoft.Maui | 9.0.90
Microsoft.Windows.Compatibility | 50 | lib | | 9.0.7
Microsoft.Extensions.Logging.Log4Net.AspNetCore | 40 | lib | Microsoft.Extensions.Logging[AddLog4Net] | 8.0.0
Elastic.Clients.Elasticsearch | 55 | lib | Elastic.Clients.Elasticsearch;Elastic.Clients.Elasticsearch.QueryDsl | 9.0.7
NEST | 65 | lib | Nest | 7.17.5
Elasticsearch.Net | 60 | lib | Elasticsearch.Net | 7.17.5
AspNetCore.HealthChecks.UI.Client | 55 | lib | HealthChecks.UI.Client | 9.0.0
AspNetCore.HealthChecks.SqlServer | 55 | lib | Microsoft.Extensions.DependencyInjection[AddSqlServer] | 9.0.0
AspNetCore.HealthChecks.NpgSql | 50 | lib | Microsoft.Extensions.DependencyInjection[AddNpgSql] | 9.0.0
AspNetCore.HealthChecks.Redis | 45 | lib | Microsoft.Extensions.DependencyInjection[AddRedis] | 9.0.0
AspNetCore.HealthChecks.Rabbitmq | 45 | lib | Microsoft.Extensions.DependencyInjection[?.AddRabbitMQ] | 9.0.0
AspNetCore.HealthChecks.MongoDb | 40 | lib | Microsoft.Extensions.DependencyInjection[?.AddMongoDb] | 9.0.0
Hellang.Middleware.ProblemDetails | 45 | lib | Hellang.Middleware.ProblemDetails | 6.5.1
Asp.Versioning.Mvc | 55 | lib | Asp.Versioning;Asp.Versioning.Routing | 8.1.0
Asp.Versioning.Mvc.ApiExplorer | 50 | lib | Asp.Versioning.ApiExplorer;Microsoft.Extensions.DependencyInjection[AddApiExplorer] | 8.1.0
Asp.Versioning.Http | 45 | lib | Asp.Versioning.Builder;Asp.Versioning.Conventions;Microsoft.Extensions.DependencyInjection[AddApiVersioning] | 8.1.0
Microsoft.Extensions.Azure | 45 | lib | Microsoft.Extensions.Azure | 1.12.0
Microsoft.Graph | 60 | lib | Microsoft.Graph;Microsoft.Graph.Models | 5.86.0
Google.Apis.Auth | 55 | lib | Google.Apis.Auth;Google.Apis.Auth.OAuth2 | 1.70.0
Google.Cloud.Storage.V1 | 45 | lib | Google.Cloud.Storage.V1 | 4.13.0
Microsoft.ML | 55 | lib | Microsoft.ML;Microsoft.ML.Data;Microsoft.ML.Trainers | 4.0.2
MathNet.Numerics | 60 | lib | MathNet.Numerics;MathNet.Numerics.LinearAlgebra;MathNet.Numerics.Statistics | 5.0.0
UnitsNet | 45 | lib | UnitsNet | 5.74.0
Microsoft.Extensions.Logging.ApplicationInsights | 50 | lib | Microsoft.Extensions.Logging.ApplicationInsights;Microsoft.Extensions.Logging[AddApplicationInsights] | 2.23.0
Microsoft.Data.SqlClient.SNI | 20 | lib | | 6.0.2
Microsoft.SqlServer.Server | 30 | lib | Microsoft.SqlServer.Server | 1.0.0
Microsoft.NETFramework.ReferenceAssemblies | 60 | build | | 1.0.3
Microsoft.NET.ILLink.Tasks | 30 | build | | 9.0.7
GuardNet | 15 | lib | GuardNet | 1.2.0
Dawn.Guard | 30 | lib | Dawn | 1.12.0
Throw | 25 | lib | Throw | 1.4.0
Microsoft.AspNetCore.Mvc.Versioning | 55 | lib | Microsoft.AspNetCore.Mvc.Versioning | 5.1.0
Microsoft.Extensions.Compliance.Redaction | 25 | lib | Microsoft.Extensions.Compliance.Redaction | 9.7.0
# session 6: long-tail rows, each from the package's own README / documentation
# (namespaces, the registration and entry-point methods its getting-started shows)
Polly.Extensions.Http | 65 | lib | Polly.Extensions.Http | 3.0.0
Hangfire.PostgreSql | 50 | lib | Hangfire.PostgreSql;Hangfire[UsePostgreSqlStorage] | 1.20.9
Hangfire.InMemory | 40 | lib | Hangfire.InMemory;Hangfire[UseInMemoryStorage] | 1.0.0
Hangfire.MemoryStorage | 40 | lib | Hangfire.MemoryStorage;Hangfire[UseMemoryStorage] | 1.8.0
Microsoft.CodeAnalysis.Analyzer.Testing | 35 | test | Microsoft.CodeAnalysis.Testing | 1.1.2
Microsoft.CodeAnalysis.CSharp.Analyzer.Testing | 45 | test | Microsoft.CodeAnalysis.CSharp.Testing[CSharpAnalyzerTest,CSharpAnalyzerVerifier] | 1.1.2
Microsoft.CodeAnalysis.CSharp.CodeFix.Testing | 45 | test | Microsoft.CodeAnalysis.CSharp.Testing[CSharpCodeFixTest,CSharpCodeFixVerifier] | 1.1.2
Microsoft.CodeAnalysis.CSharp.SourceGenerators.Testing | 40 | test | Microsoft.CodeAnalysis.CSharp.Testing[CSharpSourceGeneratorTest,CSharpSourceGeneratorVerifier] | 1.1.2
Finbuckle.MultiTenant | 50 | lib | Finbuckle.MultiTenant;Finbuckle.MultiTenant.Stores;Finbuckle.MultiTenant.Strategies | 7.0.0
Finbuckle.MultiTenant.Abstractions | 35 | lib | Finbuckle.MultiTenant.Abstractions | 9.0.0
Finbuckle.MultiTenant.AspNetCore | 45 | lib | Finbuckle.MultiTenant.AspNetCore;Microsoft.AspNetCore.Builder[UseMultiTenant] | 7.0.0
Finbuckle.MultiTenant.EntityFrameworkCore | 40 | lib | Finbuckle.MultiTenant.EntityFrameworkCore | 7.0.0
IdentityServer4 | 50 | lib | IdentityServer4;IdentityServer4.Models;IdentityServer4.Services;IdentityServer4.Stores;IdentityServer4.Validation;IdentityServer4.Extensions;IdentityServer4.Events;IdentityServer4.Test | 4.1.2
IdentityServer4.AccessTokenValidation | 45 | lib | IdentityServer4.AccessTokenValidation;Microsoft.Extensions.DependencyInjection[AddIdentityServerAuthentication] | 3.0.1
IdentityServer4.AspNetIdentity | 40 | lib | IdentityServer4.AspNetIdentity;Microsoft.Extensions.DependencyInjection[AddAspNetIdentity] | 4.1.2
IdentityServer4.EntityFramework | 40 | lib | IdentityServer4.EntityFramework;IdentityServer4.EntityFramework.DbContexts;IdentityServer4.EntityFramework.Mappers;IdentityServer4.EntityFramework.Entities | 4.1.2
Duende.BFF | 35 | lib | Duende.Bff | 2.2.0
AspNet.Security.OAuth.GitHub | 45 | lib | AspNet.Security.OAuth.GitHub;Microsoft.Extensions.DependencyInjection[AddGitHub] | 8.0.0
Blazorise | 45 | lib | Blazorise;Blazorise.Utilities;Blazorise.Extensions | 1.5.0
Blazorise.Bootstrap | 40 | lib | Blazorise.Bootstrap;Microsoft.Extensions.DependencyInjection[AddBootstrapProviders] | 1.5.0
Blazorise.Icons.FontAwesome | 40 | lib | Blazorise.Icons.FontAwesome;Microsoft.Extensions.DependencyInjection[AddFontAwesomeIcons] | 1.5.0
Blazorise.DataGrid | 35 | lib | Blazorise.DataGrid | 1.5.0
MiniProfiler.AspNetCore.Mvc | 50 | lib | StackExchange.Profiling;Microsoft.Extensions.DependencyInjection[AddMiniProfiler];Microsoft.AspNetCore.Builder[UseMiniProfiler] | 4.3.8
Microsoft.FeatureManagement | 55 | lib | Microsoft.FeatureManagement;Microsoft.FeatureManagement.FeatureFilters | 3.5.0
Microsoft.FeatureManagement.AspNetCore | 55 | lib | Microsoft.FeatureManagement.Mvc;Microsoft.FeatureManagement.Mvc.TagHelpers | 3.5.0
morelinq | 55 | lib | MoreLinq;MoreLinq.Extensions | 4.1.0
RestEase | 40 | lib | RestEase;RestEase.Implementation | 1.6.4
RestEase.HttpClientFactory | 30 | lib | Microsoft.Extensions.DependencyInjection[AddRestEaseClient] | 1.6.4
Serilog.Enrichers.Span | 40 | lib | Serilog.Enrichers.Span;Serilog[WithSpan] | 3.1.0
Serilog.Enrichers.CorrelationId | 40 | lib | Serilog.Enrichers.CorrelationId;Serilog[WithCorrelationId,WithCorrelationIdHeader] | 3.0.1
Serilog.Sinks.Elasticsearch | 50 | lib | Serilog.Sinks.Elasticsearch;Serilog[WriteTo.Elasticsearch] | 9.0.3
Serilog.Sinks.TextWriter | 30 | lib | Serilog[WriteTo.TextWriter] | 3.0.0
ZLogger | 40 | lib | ZLogger;ZLogger.Providers;ZLogger.Formatters | 2.0.0
Dapr.Client | 55 | lib | Dapr.Client;Dapr[DaprException] | 1.14.0
Dapr.AspNetCore | 55 | lib | Dapr.AspNetCore;Dapr[TopicAttribute,FromStateAttribute];Microsoft.Extensions.DependencyInjection[AddDapr,AddDaprClient];Microsoft.AspNetCore.Builder[UseCloudEvents,MapSubscribeHandler] | 1.14.0
Microsoft.AspNetCore.OData | 55 | lib | Microsoft.AspNetCore.OData;Microsoft.AspNetCore.OData.Query;Microsoft.AspNetCore.OData.Routing;Microsoft.AspNetCore.OData.Routing.Controllers;Microsoft.AspNetCore.OData.Deltas;Microsoft.AspNetCore.OData.Formatter;Microsoft.AspNetCore.OData.Results | 8.2.5
Microsoft.OData.ModelBuilder | 40 | lib | Microsoft.OData.ModelBuilder | 1.0.9
NJsonSchema | 50 | lib | NJsonSchema;NJsonSchema.Generation;NJsonSchema.Validation | 11.0.0
Akka | 45 | lib | Akka.Actor;Akka.Event;Akka.Configuration;Akka.Routing;Akka.Util;Akka.Pattern | 1.5.0
EasyNetQ | 40 | lib | =;EasyNetQ.Topology;EasyNetQ.Consumer | 7.0.0
NServiceBus | 50 | lib | =;NServiceBus.Logging;NServiceBus.Pipeline;NServiceBus.Testing | 8.0.0
Marten | 45 | lib | =;Marten.Events;Marten.Linq;Marten.Schema;Marten.Events.Projections;Marten.Events.Aggregation | 7.0.0
WolverineFx | 40 | lib | Wolverine;Wolverine.Attributes;Wolverine.Runtime;Wolverine.ErrorHandling | 2.0.0
Alba | 35 | test | Alba | 8.0.0
Spectre.Console.Testing | 40 | test | Spectre.Console.Testing | 0.50.0
FsCheck | 45 | test | FsCheck;FsCheck.Fluent | 2.16.6
FsCheck.Xunit | 40 | test | FsCheck.Xunit | 2.16.6
FsCheck.NUnit | 30 | test | FsCheck.NUnit | 2.16.6
ApprovalTests | 35 | test | ApprovalTests;ApprovalTests.Reporters;ApprovalTests.Combinations | 6.0.0
NFluent | 30 | test | NFluent | 2.8.0
LazyCache | 40 | lib | LazyCache;LazyCache.Providers | 2.4.0
LazyCache.AspNetCore | 35 | lib | Microsoft.Extensions.DependencyInjection[AddLazyCache] | 2.4.0
ZiggyCreatures.FusionCache | 45 | lib | ZiggyCreatures.Caching.Fusion;Microsoft.Extensions.DependencyInjection[AddFusionCache] | 1.0.0
DynamicData | 50 | lib | DynamicData;DynamicData.Binding;DynamicData.Aggregation;DynamicData.Kernel | 8.0.2
Terminal.Gui | 45 | lib | Terminal.Gui | 1.16.0
Microsoft.Orleans.Sdk | 50 | lib | Orleans;Orleans.Runtime;Orleans.Concurrency;Orleans.Streams | 8.0.0
Microsoft.Orleans.Server | 45 | lib | Microsoft.Extensions.Hosting[UseOrleans] | 8.0.0
Microsoft.Orleans.Client | 40 | lib | Microsoft.Extensions.Hosting[UseOrleansClient] | 8.0.0
"""

# Packages the test-project conventions add: framework -> (package, runner/adapter).
# Namespaces that every target framework has in the box (BCL facades and mscorlib),
# matched as prefixes on whole segments unless a more specific package entry exists.
INBOX_ALWAYS = [
    "System",
    "System.Collections",
    "System.Collections.Generic",
    "System.Collections.Concurrent",
    "System.Collections.ObjectModel",
    "System.Collections.Specialized",
    "System.ComponentModel",
    "System.Data",
    "System.Diagnostics",
    "System.Diagnostics.CodeAnalysis",
    "System.Dynamic",
    "System.Globalization",
    "System.IO",
    "System.IO.Compression",
    "System.IO.MemoryMappedFiles",
    "System.IO.Pipes",
    "System.Linq",
    "System.Linq.Expressions",
    "System.Net",
    "System.Net.Http",
    "System.Net.Http.Headers",
    "System.Net.Mail",
    "System.Net.NetworkInformation",
    "System.Net.Security",
    "System.Net.Sockets",
    "System.Net.WebSockets",
    "System.Numerics",
    "System.Reflection",
    "System.Reflection.Emit",
    "System.Resources",
    "System.Runtime",
    "System.Runtime.CompilerServices",
    "System.Runtime.InteropServices",
    "System.Runtime.Serialization",
    "System.Runtime.Versioning",
    "System.Runtime.ExceptionServices",
    "System.Security",
    "System.Security.Claims",
    "System.Security.Cryptography",
    "System.Security.Cryptography.X509Certificates",
    "System.Security.Principal",
    "System.Text",
    "System.Text.RegularExpressions",
    "System.Threading",
    "System.Threading.Tasks",
    "System.Timers",
    "System.Transactions",
    "System.Web",
    "System.Windows",
    "System.Windows.Forms",
    "System.Windows.Input",
    "System.Xml",
    "System.Xml.Linq",
    "System.Xml.Serialization",
    "System.Xml.XPath",
    "Microsoft.Win32",
    "Microsoft.Win32.SafeHandles",
    "Microsoft.VisualBasic",
]

# Namespaces (or packages) in the box from a given .NET version on (netcoreapp / net5+),
# from the .NET API browser's "Applies to" tables; key is the first major version.
INBOX_SINCE = {
    "System.Text.Json": 3,
    "System.Text.Encodings.Web": 3,
    "System.Collections.Immutable": 3,
    "System.Threading.Channels": 3,
    "System.Threading.Tasks.Dataflow": 3,
    "System.Reflection.Metadata": 3,
    "System.Diagnostics.DiagnosticSource": 3,
    "System.ComponentModel.Annotations": 3,
    "System.Memory": 3,
    "System.Buffers": 3,
    "System.Threading.Tasks.Extensions": 3,
    "System.ValueTuple": 3,
    "System.Runtime.CompilerServices.Unsafe": 3,
    "System.Text.Encoding.CodePages": 3,
    "System.Net.Http": 3,
    "Microsoft.Bcl.AsyncInterfaces": 3,
    "Microsoft.CSharp": 3,
    "Microsoft.Bcl.HashCode": 3,
    "System.Net.Http.Json": 5,
    "System.Formats.Asn1": 5,
    "System.Threading.RateLimiting": 7,
    "System.Formats.Tar": 7,
    "Microsoft.Bcl.TimeProvider": 8,
    "System.Linq.Async": 10,
}

# Packages whose API .NET Framework and .NET Standard took in from a version on (the API
# browser: System.ValueTuple is part of .NET Framework 4.7 and .NET Standard 2.0).
INBOX_NETFX_SINCE = {"System.ValueTuple": 4.7}
INBOX_NETSTANDARD_SINCE = {"System.ValueTuple": 2.0}
# Syntax that compiles to a package's types on targets without them in the box (C# language
# reference: tuple types, literals and deconstruction are System.ValueTuple).
POLYFILL_FEATURES = {"System.ValueTuple": ["tuple"]}

# The Windows Desktop shared framework (Microsoft.WindowsDesktop.App) that UseWPF or
# UseWindowsForms references on .NET Core 3.0+: assemblies it ships that are NuGet packages
# elsewhere (.NET docs, "Windows Forms / WPF breaking changes" and the runtime's
# Microsoft.WindowsDesktop.App reference-pack list); the .NET Framework has them all in
# its own assemblies (they are the Windows Compatibility Pack's packages, "Use the Windows
# Compatibility Pack to port code to .NET", Microsoft Learn). Check mode only.
WINDOWSDESKTOP_PACKAGES = [
    "System.Drawing.Common",
    "System.Configuration.ConfigurationManager",
    "System.Diagnostics.EventLog",
    "System.Diagnostics.PerformanceCounter",
    "System.DirectoryServices",
    "System.IO.Packaging",
    "System.Resources.Extensions",
    "System.Security.Cryptography.Pkcs",
    "System.Security.Cryptography.ProtectedData",
    "System.Security.Cryptography.Xml",
    "System.Security.Permissions",
    "System.Threading.AccessControl",
    "System.Windows.Extensions",
    "Microsoft.Win32.SystemEvents",
    "System.CodeDom",
]
# Namespaces a framework shares with a package: the framework ships some of its types
# (System.Drawing.Primitives: Point, Size, Rectangle, Color, in netstandard2.0 and every
# .NET Core), the package the rest. A `using` of one compiles without the package; only a
# package type the code names needs it (the .NET API browser, System.Drawing namespace).
# Check mode only.
SHARED_INBOX_NAMESPACES = {
    "System.Drawing": {
        "package": "System.Drawing.Common",
        "package_types": [
            "Bitmap",
            "Brush",
            "Brushes",
            "Font",
            "FontFamily",
            "Graphics",
            "Icon",
            "Image",
            "Pen",
            "Pens",
            "Region",
            "SolidBrush",
            "StringFormat",
            "SystemBrushes",
            "SystemFonts",
            "SystemIcons",
            "SystemPens",
            "TextureBrush",
        ],
    },
}

# The packages that only matter on older targets: netstandard2.1 has these in the box too.
INBOX_NETSTANDARD21 = [
    "System.Memory",
    "System.Buffers",
    "System.Threading.Tasks.Extensions",
    "System.ValueTuple",
    "Microsoft.Bcl.AsyncInterfaces",
    "Microsoft.Bcl.HashCode",
]

# The ASP.NET Core shared framework (Microsoft.AspNetCore.App) that the Web SDK references:
# namespaces that need no package there (the docs' list of assemblies in the shared framework).
ASPNETCORE_SHARED = [
    "Microsoft.AspNetCore",
    "Microsoft.Extensions.Caching.Memory",
    "Microsoft.Extensions.Caching.Distributed",
    "Microsoft.Extensions.Configuration",
    "Microsoft.Extensions.DependencyInjection",
    "Microsoft.Extensions.DependencyInjection.Extensions",
    "Microsoft.Extensions.Diagnostics.HealthChecks",
    "Microsoft.Extensions.FileProviders",
    "Microsoft.Extensions.FileSystemGlobbing",
    "Microsoft.Extensions.Hosting",
    "Microsoft.Extensions.Http",
    "Microsoft.Extensions.Localization",
    "Microsoft.Extensions.Logging",
    "Microsoft.Extensions.ObjectPool",
    "Microsoft.Extensions.Options",
    "Microsoft.Extensions.Primitives",
    "Microsoft.Extensions.WebEncoders",
    "Microsoft.Extensions.Features",
    "Microsoft.Net.Http.Headers",
    "Microsoft.JSInterop",
    "System.IO.Pipelines",
    "System.Security.Cryptography.Xml",
    "System.Diagnostics.EventLog",
]
# Packages of ASP.NET Core / Microsoft.Extensions that are NOT in the shared framework,
# whatever namespace they use (from the docs' list of packages removed from the framework).
ASPNETCORE_SHARED_EXCEPT = [
    "Microsoft.AspNetCore.Authentication.JwtBearer",
    "Microsoft.AspNetCore.Authentication.OpenIdConnect",
    "Microsoft.AspNetCore.Authentication.Google",
    "Microsoft.AspNetCore.Authentication.MicrosoftAccount",
    "Microsoft.AspNetCore.Authentication.Facebook",
    "Microsoft.AspNetCore.Authentication.Twitter",
    "Microsoft.AspNetCore.Authentication.Certificate",
    "Microsoft.AspNetCore.Authentication.Negotiate",
    "Microsoft.AspNetCore.Mvc.Testing",
    "Microsoft.AspNetCore.TestHost",
    "Microsoft.AspNetCore.Mvc.NewtonsoftJson",
    "Microsoft.AspNetCore.JsonPatch",
    "Microsoft.AspNetCore.Mvc.Razor.RuntimeCompilation",
    "Microsoft.AspNetCore.SpaServices.Extensions",
    "Microsoft.AspNetCore.SignalR.Client",
    "Microsoft.AspNetCore.SignalR.Protocols.MessagePack",
    "Microsoft.AspNetCore.Identity.EntityFrameworkCore",
    "Microsoft.AspNetCore.Identity.UI",
    "Microsoft.AspNetCore.Diagnostics.EntityFrameworkCore",
    "Microsoft.AspNetCore.OpenApi",
    "Microsoft.AspNetCore.Components.WebAssembly",
    "Microsoft.AspNetCore.Components.WebAssembly.Server",
    "Microsoft.AspNetCore.Components.WebAssembly.Authentication",
    "Microsoft.AspNetCore.Components.QuickGrid",
    "Microsoft.AspNetCore.DataProtection.StackExchangeRedis",
    "Microsoft.AspNetCore.DataProtection.EntityFrameworkCore",
    "Microsoft.AspNetCore.HeaderPropagation",
    "Microsoft.AspNetCore.Http.Connections.Client",
    "Microsoft.AspNetCore.Grpc.JsonTranscoding",
    "Microsoft.Extensions.Caching.StackExchangeRedis",
    "Microsoft.Extensions.Http.Polly",
    "Microsoft.Extensions.Http.Resilience",
    "Microsoft.Extensions.ServiceDiscovery",
    "Microsoft.Extensions.Diagnostics.HealthChecks.EntityFrameworkCore",
    "Microsoft.Extensions.Hosting.WindowsServices",
    "Microsoft.Extensions.Hosting.Systemd",
    "Microsoft.Extensions.Caching.Hybrid",
    "Microsoft.Extensions.TimeProvider.Testing",
    "Microsoft.Extensions.Diagnostics.Testing",
    "Microsoft.Extensions.ApiDescription.Server",
    "Microsoft.Extensions.AI",
    "Microsoft.Extensions.DependencyModel",
    "Microsoft.Extensions.Azure",
    "Microsoft.Extensions.Logging.ApplicationInsights",
    "Microsoft.Extensions.Logging.Log4Net.AspNetCore",
    "Microsoft.Extensions.Compliance.Redaction",
    "Microsoft.Extensions.Resilience",
]

# Packages whose own package declares `<FrameworkReference Include="Microsoft.AspNetCore.App" />`
# on .NET (Core) targets (the `frameworkReferences` group of their published nuspec, shown
# on each gallery page; the ASP.NET Core docs' "use ASP.NET Core APIs in a class library"):
# a project referencing one of them compiles against the whole ASP.NET Core shared
# framework, so Microsoft.AspNetCore.* / Microsoft.Extensions.* namespaces are in its box.
ASPNETCORE_FRAMEWORK_PACKAGES = [
    "Microsoft.AspNetCore.Mvc.Testing",
    "Microsoft.AspNetCore.TestHost",
    "Microsoft.AspNetCore.Authentication.JwtBearer",
    "Microsoft.AspNetCore.Authentication.OpenIdConnect",
    "Microsoft.AspNetCore.Authentication.Google",
    "Microsoft.AspNetCore.Authentication.MicrosoftAccount",
    "Microsoft.AspNetCore.Authentication.Facebook",
    "Microsoft.AspNetCore.Authentication.Twitter",
    "Microsoft.AspNetCore.Authentication.Certificate",
    "Microsoft.AspNetCore.Authentication.Negotiate",
    "Microsoft.AspNetCore.Mvc.NewtonsoftJson",
    "Microsoft.AspNetCore.Mvc.Razor.RuntimeCompilation",
    "Microsoft.AspNetCore.SpaServices.Extensions",
    "Microsoft.AspNetCore.Identity.UI",
    "Microsoft.AspNetCore.Diagnostics.EntityFrameworkCore",
    "Microsoft.AspNetCore.OpenApi",
    "Microsoft.AspNetCore.Components.WebAssembly.Server",
    "Microsoft.AspNetCore.HeaderPropagation",
    "Microsoft.AspNetCore.Grpc.JsonTranscoding",
    "Grpc.AspNetCore",
    "Grpc.AspNetCore.Server",
    "Serilog.AspNetCore",
    # (their .NET Core builds declare the FrameworkReference too: gallery pages, "Frameworks")
    "IdentityServer4",
    "prometheus-net.AspNetCore",
    "FluentValidation.AspNetCore",
]

# Implicit usings each project SDK adds when ImplicitUsings is enabled (SDK docs).
IMPLICIT_USINGS = {
    "Microsoft.NET.Sdk": [
        "System",
        "System.Collections.Generic",
        "System.IO",
        "System.Linq",
        "System.Net.Http",
        "System.Threading",
        "System.Threading.Tasks",
    ],
    "Microsoft.NET.Sdk.Web": [
        "System.Net.Http.Json",
        "Microsoft.AspNetCore.Builder",
        "Microsoft.AspNetCore.Hosting",
        "Microsoft.AspNetCore.Http",
        "Microsoft.AspNetCore.Routing",
        "Microsoft.Extensions.Configuration",
        "Microsoft.Extensions.DependencyInjection",
        "Microsoft.Extensions.Hosting",
        "Microsoft.Extensions.Logging",
    ],
    "Microsoft.NET.Sdk.Worker": [
        "Microsoft.Extensions.Configuration",
        "Microsoft.Extensions.DependencyInjection",
        "Microsoft.Extensions.Hosting",
        "Microsoft.Extensions.Logging",
    ],
    "Microsoft.NET.Sdk.BlazorWebAssembly": [
        "System.Net.Http.Json",
        "Microsoft.AspNetCore.Components",
        "Microsoft.AspNetCore.Components.Forms",
        "Microsoft.AspNetCore.Components.Routing",
        "Microsoft.AspNetCore.Components.Web",
        "Microsoft.AspNetCore.Components.Web.Virtualization",
        "Microsoft.AspNetCore.Components.WebAssembly.Http",
        "Microsoft.JSInterop",
    ],
    "Microsoft.NET.Sdk.Razor": [],
    "MSTest.Sdk": ["Microsoft.VisualStudio.TestTools.UnitTesting"],
    "Aspire.AppHost.Sdk": ["Aspire.Hosting"],
}

# Project SDKs that bring the ASP.NET Core shared framework.
WEB_SDKS = ["Microsoft.NET.Sdk.Web"]
# Project SDKs that bring a test framework, test SDK and adapter themselves.
TEST_SDKS = {
    "MSTest.Sdk": [
        "MSTest.TestFramework",
        "MSTest.TestAdapter",
        "MSTest.Analyzers",
        "MSTest",
        "Microsoft.NET.Test.Sdk",
        "Microsoft.Testing.Extensions.CodeCoverage",
        "Microsoft.Testing.Extensions.TrxReport",
    ]
}
# Project SDKs that bring packages from a version on: (major, ids). The Aspire 13 upgrade
# guide: with `<Project Sdk="Aspire.AppHost.Sdk/13.0.0">` Aspire.Hosting.AppHost is
# implicit (9.x projects referenced it beside `<Sdk Name="Aspire.AppHost.Sdk"/>`).
SDK_PACKAGES_SINCE = {
    "Aspire.AppHost.Sdk": [[13, ["Aspire.Hosting.AppHost"]]],
}

# Packages released together with a project SDK, same version number (Aspire's release
# notes: the AppHost SDK, hosting and client integrations ship as one version): a project
# using the SDK at X takes X for them unless the repository states another version.
RELEASE_TRAINS = [
    {
        "sdk": "Aspire.AppHost.Sdk",
        "prefixes": ["Aspire.Hosting.", "Aspire."],
    },
]

# Families that version with the .NET runtime (8.0.x for net8.0): id prefixes.
RUNTIME_FAMILIES = [
    "Microsoft.Extensions.",
    "Microsoft.AspNetCore.",
    "Microsoft.EntityFrameworkCore",
    "Microsoft.Data.Sqlite",
    "System.Text.Json",
    "System.Text.Encodings.Web",
    "System.Collections.Immutable",
    "System.Threading.Channels",
    "System.IO.Pipelines",
    "System.Reflection.Metadata",
    "System.Diagnostics.DiagnosticSource",
    "System.Configuration.ConfigurationManager",
    "System.Drawing.Common",
    "System.Management",
    "System.DirectoryServices",
    "System.IO.Ports",
    "System.ServiceProcess.ServiceController",
    "System.Diagnostics.EventLog",
    "System.Diagnostics.PerformanceCounter",
    "System.Security.Cryptography.",
    "System.Runtime.Caching",
    "System.Composition",
    "System.CodeDom",
    "System.Net.Http.Json",
    "System.Formats.Asn1",
    "System.IO.Hashing",
    "System.Threading.Tasks.Dataflow",
    "Microsoft.Bcl.AsyncInterfaces",
]
# Members of those prefixes that version on their own (not with the runtime).
RUNTIME_FAMILY_EXCEPT = [
    "Microsoft.Extensions.Http.Resilience",
    "Microsoft.Extensions.Resilience",
    "Microsoft.Extensions.ServiceDiscovery",
    "Microsoft.Extensions.TimeProvider.Testing",
    "Microsoft.Extensions.Diagnostics.Testing",
    "Microsoft.Extensions.Caching.Hybrid",
    "Microsoft.Extensions.AI",
    "Microsoft.Extensions.Azure",
    "Microsoft.Extensions.Compliance.Redaction",
    "Microsoft.Extensions.Logging.ApplicationInsights",
    "Microsoft.Extensions.Logging.Log4Net.AspNetCore",
    "Microsoft.AspNetCore.Http.Abstractions",
    "Microsoft.AspNetCore.Mvc.Core",
    "Microsoft.AspNetCore.Hosting.Abstractions",
    "Microsoft.AspNetCore.Http.Features",
    "Microsoft.AspNetCore.WebUtilities",
    "Microsoft.AspNetCore.Mvc.Versioning",
]


# Test-project conventions (the `dotnet new xunit|nunit|mstest` templates and each
# framework's "getting started" docs): attributes that show the framework, the framework
# package, the adapter/runner `dotnet test` needs, and the analyzers the template adds.
TEST_FRAMEWORKS = {
    "xunit": {
        "attributes": ["Fact", "Theory", "InlineData", "MemberData", "ClassData", "Collection"],
        "namespaces": ["Xunit"],
        "packages": ["xunit"],
        "alternatives": {"xunit": ["xunit.v3"]},
        "runner": ["xunit.runner.visualstudio"],
        "analyzers": ["xunit.analyzers"],
        # xunit.net v3 docs ("Getting started with v3", "Microsoft Testing Platform"): v3
        # test projects are executables (OutputType Exe); xunit.v3 runs on the testing
        # platform v1, xunit.v3.mtp-v2 on v2 (what the .NET 10 SDK's `dotnet test` runs
        # when global.json names the Microsoft.Testing.Platform runner); the VSTest
        # adapter is then not needed
        "executable": ["xunit.v3"],
        "platform_v2": ["xunit.v3.mtp-v2"],
        # the same v3 framework with the testing platform pinned (v1) or left out (VSTest
        # only): a repository that lists one of these uses it for its executables
        "executable_alternatives": {"xunit.v3": ["xunit.v3.mtp-off", "xunit.v3.mtp-v1"]},
        "vstest_only": ["xunit.runner.visualstudio"],
    },
    "nunit": {
        "attributes": [
            "Test",
            "TestCase",
            "TestFixture",
            "TestCaseSource",
            "SetUp",
            "OneTimeSetUp",
            "TearDown",
        ],
        "namespaces": ["NUnit.Framework"],
        "packages": ["NUnit"],
        "alternatives": {},
        "runner": ["NUnit3TestAdapter"],
        "analyzers": ["NUnit.Analyzers"],
    },
    "mstest": {
        "attributes": ["TestMethod", "TestClass", "DataTestMethod", "DataRow", "TestInitialize"],
        "namespaces": ["Microsoft.VisualStudio.TestTools.UnitTesting"],
        "packages": ["MSTest.TestFramework"],
        "alternatives": {"MSTest.TestFramework": ["MSTest"]},
        "runner": ["MSTest.TestAdapter"],
        "analyzers": ["MSTest.Analyzers"],
    },
    # TUnit's docs ("Getting started", "Installing TUnit"): one package bringing the
    # framework, assertions and its own Microsoft.Testing.Platform runner (no VSTest, no
    # Microsoft.NET.Test.Sdk); its global usings (TUnitImplicitUsings) hide the namespaces
    "tunit": {
        "attributes": [
            "Test",
            "Arguments",
            "MethodDataSource",
            "ClassDataSource",
            "Before",
            "After",
            "DependsOn",
            "NotInParallel",
        ],
        "namespaces": ["TUnit.Core", "TUnit.Assertions"],
        "properties": ["TUnitImplicitUsings", "TUnitAssertionsImplicitUsings"],
        "packages": ["TUnit"],
        "alternatives": {},
        "runner": [],
        "analyzers": [],
        "testing_platform": True,
    },
}
# Microsoft.Testing.Platform (the .NET docs' "Microsoft.Testing.Platform overview" and
# "Testing with dotnet test"): project properties that make a test project its own
# testing-platform executable, and the global.json `test.runner` value that switches
# `dotnet test` to it for the whole repository (.NET 10 SDK; testing platform v2).
TESTING_PLATFORM = {
    "properties": [
        "EnableNUnitRunner",
        "EnableMSTestRunner",
        "TestingPlatformDotnetTestSupport",
        "UseMicrosoftTestingPlatformRunner",
    ],
    "global_json_runner": "Microsoft.Testing.Platform",
}
TEST_SDK = "Microsoft.NET.Test.Sdk"
# CI signs that coverage is collected (coverlet docs: collector vs msbuild integration).
COVERAGE = {
    "coverlet.collector": ["XPlat Code Coverage", "--collect", "coverlet.collector"],
    "coverlet.msbuild": ["CollectCoverage=true", "/p:CollectCoverage", "-p:CollectCoverage"],
}
TEST_LOGGERS = {"GitHubActionsTestLogger": ["--logger GitHubActions", "logger:GitHubActions"]}
# Files in a project's folder that an analyzer package reads as its input (the roslyn-analyzers
# docs: PublicApiAnalyzers tracks the API in PublicAPI.Shipped.txt / PublicAPI.Unshipped.txt,
# BannedApiAnalyzers reads BannedSymbols.txt): the project references that analyzer.
# Projects compiling .proto files (<Protobuf> items), from the gRPC for .NET docs ("Create a
# gRPC client and server in ASP.NET Core"): a web app serving the services takes
# Grpc.AspNetCore (which brings the compiler and the message runtime); a client takes the
# compiler and the message runtime itself (Grpc.Tools, Google.Protobuf) beside its channel.
PROTOBUF = {
    "server": ["Grpc.AspNetCore"],
    "client": ["Grpc.Tools", "Google.Protobuf"],
}

# The attributes that mark MVC controllers and endpoint classes (the ASP.NET Core docs,
# "Routing to controller actions": attribute routing, and "Create web APIs": [ApiController]):
# where the web-views placement (the scaffolding tool) finds an MVC app without views.
MVC_ATTRIBUTES = ["ApiController", "HttpGet", "HttpPost", "HttpPut", "HttpDelete", "Route"]

FILE_SIGNALS = {
    "PublicAPI.Shipped.txt": "Microsoft.CodeAnalysis.PublicApiAnalyzers",
    "PublicAPI.Unshipped.txt": "Microsoft.CodeAnalysis.PublicApiAnalyzers",
    "BannedSymbols.txt": "Microsoft.CodeAnalysis.BannedApiAnalyzers",
}
# Properties a build-tool package documents as its own settings, set in a project file:
# the project uses that tool. MinVer's README (MinVerTagPrefix, MinVerMinimumMajorMinor,
# MinVerDefaultPreReleaseIdentifiers … all start with "MinVer"); SourceLink's README
# (PublishRepositoryUrl / EmbedUntrackedSources, with the provider package of the host the
# repository lives on: Microsoft.SourceLink.GitHub for GitHub).
# prefix: property name prefix; property + value: that property set to that value;
# host: only when the repository is hosted there (RepositoryUrl / a .github folder).
PROPERTY_SIGNALS = [
    {"prefix": "MinVer", "package": "MinVer"},
    # the build-time OpenAPI document generator's MSBuild properties (the ASP.NET Core
    # docs, "Generate OpenAPI documents at build time")
    {"prefix": "OpenApiGenerateDocuments", "package": "Microsoft.Extensions.ApiDescription.Server"},
    {
        "prefix": "OpenApiDocumentsDirectory",
        "package": "Microsoft.Extensions.ApiDescription.Server",
    },
    {
        "property": "PublishRepositoryUrl",
        "value": "true",
        "package": "Microsoft.SourceLink.GitHub",
        "host": "github",
    },
]

# Where a package with no namespace of its own goes when the repository lists it centrally
# (Directory.Packages.props) but no project references it (each from the package's docs):
#   all: every project (analyzers / build tools applied repository-wide);
#   test / test:<framework>: test projects (of that framework);
#   uses:<id>: projects that use package <id> (the analyzers for a library);
#   startup-ef: startup projects (Web SDK or Exe, not an Aspire AppHost) whose code uses
#     EF Core, and projects holding EF Core migrations (design-time tools);
#   ef-migrations: the project holding EF Core migrations, and startup projects (Web SDK
#     or Exe) that reach such a project through their references;
#   web / wasm: Web SDK / Blazor WebAssembly SDK projects;
#   wasm-app: a Blazor WebAssembly SDK project that adds its own root components
#     (`builder.RootComponents.Add<App>`): an app that runs on its own or hosted, which
#     the Blazor WebAssembly template serves with the development server; a Blazor Web App's
#     `.Client` project (rendered from the server, no root components) has none;
#   file:<name>: projects whose folder holds that file;
#   legacy-tfm: projects targeting netstandard2.0 or .NET Framework (polyfill generators);
#   code: nowhere by convention (overrides a prefix rule; the code's own use decides).
PLACEMENT = {
    "xunit.analyzers": "test:xunit",
    "NUnit.Analyzers": "test:nunit",
    "MSTest.Analyzers": "test:mstest",
    "coverlet.collector": "test",
    "coverlet.msbuild": "test",
    "GitHubActionsTestLogger": "test",
    "JunitXml.TestLogger": "test",
    # testing-platform extensions (their docs: code coverage, TRX report, coverlet.MTP)
    "Microsoft.Testing.Extensions.CodeCoverage": "test",
    # the TRX report extension of the testing platform: xunit v3 writes TRX itself and
    # TUnit depends on the extension (their docs), so only MSTest and NUnit list it
    "Microsoft.Testing.Extensions.TrxReport": "test:mstest|nunit",
    "coverlet.MTP": "test",
    "NSubstitute.Analyzers.CSharp": "uses:NSubstitute",
    "FluentAssertions.Analyzers": "uses:FluentAssertions",
    "Moq.Analyzers": "uses:Moq",
    "Microsoft.EntityFrameworkCore.Design": "startup-ef",
    "Microsoft.EntityFrameworkCore.Tools": "startup-ef",
    # the scaffolding tool generates MVC views and Razor Pages (its docs): web apps with
    # .cshtml files, not minimal APIs or Blazor apps
    "Microsoft.VisualStudio.Web.CodeGeneration.Design": "web-views",
    # set up by its MSBuild properties (PROPERTY_SIGNALS), not by being listed
    "Microsoft.Extensions.ApiDescription.Server": "code",
    "Microsoft.Web.LibraryManager.Build": "file:libman.json",
    "Microsoft.TypeScript.MSBuild": "file:tsconfig.json",
    # the testing library is no hosting integration: only code that starts an AppHost
    # (DistributedApplicationTestingBuilder) shows where it goes
    "Aspire.Hosting.Testing": "code",
    # NsDepCop's docs: the analyzer reads config.nsdepcop from the project's folder
    "NsDepCop": "file:config.nsdepcop",
    "Microsoft.AspNetCore.Components.WebAssembly.DevServer": "wasm-app",
    # source-only polyfills of language-support types: only where older targets compile
    # syntax that needs them (POLYFILL_SYNTAX)
    "PolySharp": "legacy-syntax",
    "Polyfill": "legacy-syntax",
    "PolyShim": "legacy-syntax",
    "Microsoft.NETFramework.ReferenceAssemblies": "legacy-tfm",
    "SonarAnalyzer.CSharp": "all",
    "StyleCop.Analyzers": "all",
    "Roslynator.Analyzers": "all",
    "Meziantou.Analyzer": "all",
    "CSharpier.MsBuild": "all",
    "Microsoft.CodeAnalysis.NetAnalyzers": "all",
    "Microsoft.VisualStudio.Threading.Analyzers": "all",
    "IDisposableAnalyzers": "all",
    "AsyncFixer": "all",
    "Microsoft.SourceLink.GitHub": "packable",
    # generates the package's software bill of materials during `dotnet pack` (its docs)
    "Microsoft.Sbom.Targets": "packable",
    "DotNet.ReproducibleBuilds": "packable",
    "MinVer": "packable",
    "Nerdbank.GitVersioning": "packable",
    # its docs: the analyzers for authors of analyzers and source generators (RS1xxx)
    "Microsoft.CodeAnalysis.Analyzers": "roslyn",
}

# Packages the project templates add where no code names them, placed with or without a
# central list (a central list still has to name them), by the PLACEMENT rules above:
# the Blazor WebAssembly templates ("ASP.NET Core Blazor project structure" docs) reference
# the development server from the app project; migrations are created with EF Core's
# design-time tools, which the "Entity Framework Core tools reference" docs install in the
# startup project (Microsoft.EntityFrameworkCore.Tools for the Package Manager Console;
# it brings the Design package the `dotnet ef` tool needs). Only where migrations exist:
# a project that merely queries a database never ran the tools.
TEMPLATE_PACKAGES = {
    "Microsoft.AspNetCore.Components.WebAssembly.DevServer": "wasm-app",
    "Microsoft.EntityFrameworkCore.Tools": "ef-migrations",
}

# A package another chosen package already depends on is not listed beside it
# (each provider's dependency list on its gallery page).
IMPLIED_BY = {
    "Microsoft.EntityFrameworkCore.Relational": [
        "Microsoft.EntityFrameworkCore.SqlServer",
        "Microsoft.EntityFrameworkCore.Sqlite",
        "Npgsql.EntityFrameworkCore.PostgreSQL",
        "Pomelo.EntityFrameworkCore.MySql",
    ],
    # the Blazor WebAssembly host builds on logging and the DI container (its gallery
    # page's dependency group: Components.Web, Extensions.Logging, JSInterop.WebAssembly)
    "Microsoft.Extensions.Logging.Abstractions": [
        "Microsoft.Extensions.Logging",
        "Microsoft.AspNetCore.Components.WebAssembly",
    ],
    # Swashbuckle's README: the metapackage bundles the generator, the middleware and the
    # UI; an app whose OpenAPI document comes from Microsoft.AspNetCore.OpenApi
    # (`AddOpenApi`) takes the UI alone ("Use Swagger UI" in the ASP.NET Core OpenAPI docs)
    "Swashbuckle.AspNetCore.SwaggerUI": ["Swashbuckle.AspNetCore"],
    # the OpenAPI object model (`OpenApiInfo`, `OpenApiSecurityScheme` in an AddSwaggerGen
    # or AddOpenApi configuration) comes with the generator that takes it: the dependency
    # groups of Swashbuckle.AspNetCore.Swagger / .SwaggerGen and Microsoft.AspNetCore.OpenApi
    # on their gallery pages. Counted on the C# corpus train split (csharp17, before:
    # 679570d): 11 project files wrote it beside Swashbuckle, none of them declares it.
    "Microsoft.OpenApi": [
        "Swashbuckle.AspNetCore",
        "Swashbuckle.AspNetCore.Swagger",
        "Swashbuckle.AspNetCore.SwaggerGen",
        "Microsoft.AspNetCore.OpenApi",
    ],
    # the Roslyn compiler packages' dependency groups hold the immutable collections and
    # System.Memory; System.Memory's holds System.Buffers (their gallery pages)
    "System.Collections.Immutable": [
        "Microsoft.CodeAnalysis.Common",
        "Microsoft.CodeAnalysis.CSharp",
        "Microsoft.CodeAnalysis.CSharp.Workspaces",
        "Microsoft.CodeAnalysis.Workspaces.Common",
    ],
    "System.Memory": [
        "Microsoft.CodeAnalysis.Common",
        "Microsoft.CodeAnalysis.CSharp",
        "Microsoft.CodeAnalysis.CSharp.Workspaces",
    ],
    "System.Buffers": ["System.Memory"],
    # gRPC's ASP.NET Core server and .NET client packages build on its API package (their
    # gallery pages' dependency groups)
    "Grpc.Core.Api": [
        "Grpc.AspNetCore",
        "Grpc.AspNetCore.Server",
        "Grpc.AspNetCore.Server.ClientFactory",
        "Grpc.Net.Client",
        "Grpc.Net.ClientFactory",
        "Grpc.Net.Common",
    ],
    # the logging providers build on the logging factory, and so does the generic host
    # (their gallery pages' dependency groups)
    "Microsoft.Extensions.Logging": [
        "Microsoft.Extensions.Logging.Console",
        "Microsoft.Extensions.Logging.Debug",
        "Microsoft.Extensions.Logging.Configuration",
        "Microsoft.Extensions.Logging.EventLog",
        "Microsoft.Extensions.Logging.EventSource",
        "Microsoft.Extensions.Hosting",
    ],
    "Microsoft.AspNetCore.Components": [
        "Microsoft.AspNetCore.Components.Web",
        "Microsoft.AspNetCore.Components.Authorization",
        "Microsoft.AspNetCore.Components.WebAssembly",
    ],
    "Microsoft.AspNetCore.Components.Web": [
        "Microsoft.AspNetCore.Components.WebAssembly",
        "Microsoft.AspNetCore.Components.WebAssembly.Authentication",
    ],
    "Microsoft.AspNetCore.Components.Authorization": [
        "Microsoft.AspNetCore.Components.WebAssembly.Authentication"
    ],
    "Microsoft.Extensions.Configuration.Abstractions": ["Microsoft.Extensions.Configuration"],
    "Microsoft.Extensions.Hosting.Abstractions": ["Microsoft.Extensions.Hosting"],
    "MediatR.Contracts": ["MediatR"],
    "Microsoft.CodeAnalysis.Analyzer.Testing": [
        "Microsoft.CodeAnalysis.CSharp.Analyzer.Testing",
        "Microsoft.CodeAnalysis.CSharp.CodeFix.Testing",
        "Microsoft.CodeAnalysis.CSharp.SourceGenerators.Testing",
    ],
    "Microsoft.FeatureManagement": ["Microsoft.FeatureManagement.AspNetCore"],
    "Microsoft.OData.ModelBuilder": ["Microsoft.AspNetCore.OData"],
    "Finbuckle.MultiTenant": [
        "Finbuckle.MultiTenant.AspNetCore",
        "Finbuckle.MultiTenant.EntityFrameworkCore",
    ],
    "Blazorise": ["Blazorise.Bootstrap", "Blazorise.Icons.FontAwesome", "Blazorise.DataGrid"],
    "RestEase": ["RestEase.HttpClientFactory"],
    "LazyCache": ["LazyCache.AspNetCore"],
    "IdentityServer4": ["IdentityServer4.AspNetIdentity", "IdentityServer4.EntityFramework"],
    "Azure.Core": ["Azure.Identity", "Azure.Storage.Blobs", "Azure.Messaging.ServiceBus"],
    "MongoDB.Bson": ["MongoDB.Driver"],
    "Serilog.Extensions.Logging": ["Serilog.AspNetCore", "Serilog.Extensions.Hosting"],
    "Serilog.Extensions.Hosting": ["Serilog.AspNetCore"],
    # Serilog.AspNetCore's README: the package includes the console, file and debug sinks,
    # configuration reading and the compact formatter (its nuspec's dependency group)
    "Serilog.Sinks.Console": ["Serilog.AspNetCore"],
    "Serilog.Sinks.File": ["Serilog.AspNetCore"],
    "Serilog.Sinks.Debug": ["Serilog.AspNetCore"],
    "Serilog.Settings.Configuration": ["Serilog.AspNetCore"],
    "Serilog.Formatting.Compact": ["Serilog.AspNetCore"],
    # ASP.NET Core 2.x packages (.NET Framework / .NET Standard targets): the abstractions
    # depend on the feature interfaces (their nuspec dependency groups)
    "Microsoft.AspNetCore.Http.Features": ["Microsoft.AspNetCore.Http.Abstractions"],
    # Newtonsoft.Json.Schema's dependency group
    "Newtonsoft.Json": ["Newtonsoft.Json.Schema"],
    # Serilog.Extensions.Hosting's dependency group
    "Microsoft.Extensions.DependencyInjection.Abstractions": [
        "Microsoft.Extensions.DependencyInjection",
        "Serilog.Extensions.Hosting",
        "Microsoft.AspNetCore.Components.WebAssembly",
    ],
    # Aspire.Hosting.Testing depends on Aspire.Hosting.AppHost (its gallery page)
    "Aspire.Hosting.AppHost": ["Aspire.Hosting.Testing"],
    "xunit.abstractions": ["xunit"],
    "Polly.Core": ["Polly"],
    # NetArchTest's custom rules take Mono.Cecil types (its dependency group)
    "Mono.Cecil": ["NetArchTest.Rules", "NetArchTest.eNhancedEdition"],
    # the SDK packages' dependency groups: hosting and exporters build on the SDK itself
    "OpenTelemetry": [
        "OpenTelemetry.Extensions.Hosting",
        "OpenTelemetry.Exporter.OpenTelemetryProtocol",
        "OpenTelemetry.Exporter.Console",
        "Azure.Monitor.OpenTelemetry.AspNetCore",
    ],
    # each EF Core database provider depends on EF Core (and its relational layer); an
    # Aspire EF component on its provider (their gallery dependency lists)
    "Microsoft.EntityFrameworkCore": [
        "Microsoft.EntityFrameworkCore.Relational",
        "Microsoft.EntityFrameworkCore.SqlServer",
        "Microsoft.EntityFrameworkCore.Sqlite",
        "Microsoft.EntityFrameworkCore.InMemory",
        "Microsoft.EntityFrameworkCore.Cosmos",
        "Npgsql.EntityFrameworkCore.PostgreSQL",
        "Pomelo.EntityFrameworkCore.MySql",
        "Aspire.Microsoft.EntityFrameworkCore.SqlServer",
        "Aspire.Npgsql.EntityFrameworkCore.PostgreSQL",
        "Aspire.Pomelo.EntityFrameworkCore.MySql",
        "Aspire.Microsoft.EntityFrameworkCore.Cosmos",
    ],
    "Microsoft.EntityFrameworkCore.SqlServer": ["Aspire.Microsoft.EntityFrameworkCore.SqlServer"],
    "Npgsql.EntityFrameworkCore.PostgreSQL": ["Aspire.Npgsql.EntityFrameworkCore.PostgreSQL"],
    "Pomelo.EntityFrameworkCore.MySql": ["Aspire.Pomelo.EntityFrameworkCore.MySql"],
    "Microsoft.Data.SqlClient": [
        "Microsoft.EntityFrameworkCore.SqlServer",
        "Aspire.Microsoft.Data.SqlClient",
        "Aspire.Microsoft.EntityFrameworkCore.SqlServer",
    ],
    # an Aspire client integration depends on the client library it registers
    "Npgsql": ["Npgsql.EntityFrameworkCore.PostgreSQL", "Aspire.Npgsql"],
    "MySqlConnector": ["Aspire.MySqlConnector", "Pomelo.EntityFrameworkCore.MySql"],
    "StackExchange.Redis": [
        "Aspire.StackExchange.Redis",
        "Aspire.StackExchange.Redis.OutputCaching",
        "Aspire.StackExchange.Redis.DistributedCaching",
    ],
    "Azure.Storage.Blobs": ["Aspire.Azure.Storage.Blobs"],
    "Azure.Storage.Queues": ["Aspire.Azure.Storage.Queues"],
    "Azure.Data.Tables": ["Aspire.Azure.Data.Tables"],
    "Azure.Messaging.ServiceBus": ["Aspire.Azure.Messaging.ServiceBus"],
    "Azure.Security.KeyVault.Secrets": ["Aspire.Azure.Security.KeyVault"],
    "Microsoft.Azure.Cosmos": ["Aspire.Microsoft.Azure.Cosmos"],
    "RabbitMQ.Client": ["Aspire.RabbitMQ.Client"],
    "MongoDB.Driver": ["Aspire.MongoDB.Driver"],
    "Confluent.Kafka": ["Aspire.Confluent.Kafka"],
    "Azure.AI.OpenAI": ["Aspire.Azure.AI.OpenAI"],
    "OpenAI": ["Aspire.OpenAI", "Azure.AI.OpenAI"],
    "Microsoft.CodeAnalysis.Common": ["Microsoft.CodeAnalysis.CSharp"],
    # the workspace layer's dependency group holds its language's compiler package
    "Microsoft.CodeAnalysis.CSharp": ["Microsoft.CodeAnalysis.CSharp.Workspaces"],
}

# Id prefixes placed the same way when the exact id has no row above (Aspire docs: hosting
# integrations belong to the AppHost project; analyzer companions `<Lib>.Analyzers` go
# where <Lib> is used).
PLACEMENT_PREFIX = {
    "Aspire.Hosting.": "apphost",
    "CommunityToolkit.Aspire.Hosting.": "apphost",
}

# Dependencies listed packages bring (their gallery dependency lists): under central
# package management such a package is not added to the list on its own.
BROUGHT_BY = {
    "MimeKit": ["MailKit"],
    # the Roslyn workspace layer depends on the compiler package of its language
    "Microsoft.CodeAnalysis.CSharp": ["Microsoft.CodeAnalysis.CSharp.Workspaces"],
    "FluentValidation": [
        "FastEndpoints",
        "FluentValidation.AspNetCore",
        "FluentValidation.DependencyInjectionExtensions",
    ],
    "Docker.DotNet": ["Testcontainers"],
    "Azure.Core": [
        "Azure.Identity",
        "Azure.Storage.Blobs",
        "Azure.Messaging.ServiceBus",
        "Microsoft.Data.SqlClient",
        "Microsoft.EntityFrameworkCore.SqlServer",
    ],
    "Castle.Core": ["Moq", "NSubstitute"],
    "Serilog": ["Serilog.AspNetCore", "Serilog.Extensions.Hosting", "Serilog.Sinks.Console"],
    # Hangfire's gallery page: Hangfire depends on Hangfire.Core, which depends on Newtonsoft.Json
    "Newtonsoft.Json": ["Microsoft.AspNetCore.Mvc.NewtonsoftJson", "RestSharp", "Hangfire"],
    # JwtBearer depends on Microsoft.IdentityModel.Protocols.OpenIdConnect, which depends on
    # System.IdentityModel.Tokens.Jwt (both gallery pages' dependency lists)
    "System.IdentityModel.Tokens.Jwt": [
        "Microsoft.AspNetCore.Authentication.JwtBearer",
        "Microsoft.IdentityModel.Protocols.OpenIdConnect",
    ],
    # IdentityServer4's and IdentityServer4.AccessTokenValidation's dependency lists
    "IdentityModel": ["IdentityServer4", "IdentityServer4.AccessTokenValidation"],
    # ReactiveUI's dependency list (DynamicData, Splat)
    "DynamicData": ["ReactiveUI"],
    # NEST's dependency list (the low-level client)
    "Elasticsearch.Net": ["NEST"],
    # Volo.Abp.Core's dependency list
    "JetBrains.Annotations": ["Volo.Abp.Core"],
    "MediatR.Contracts": ["MediatR"],
    "Google.Protobuf": ["Grpc.AspNetCore"],
    # Aspire's Azure hosting integrations build on the container ones (their gallery pages)
    "Aspire.Hosting.PostgreSQL": ["Aspire.Hosting.Azure.PostgreSQL"],
    "Aspire.Hosting.SqlServer": ["Aspire.Hosting.Azure.Sql"],
    "Aspire.Hosting.Redis": ["Aspire.Hosting.Azure.Redis"],
}

# What a package depends on (its NuGet gallery page's dependency list, current major
# version; the dependencies every target framework group shares). Check mode only: a
# `using` of a dependency compiles in a project referencing the parent.
_MX = "Microsoft.Extensions."
_ASPNETCORE2_META = [
    "Microsoft.EntityFrameworkCore",
    "Microsoft.EntityFrameworkCore.Design",
    "Microsoft.EntityFrameworkCore.InMemory",
    "Microsoft.EntityFrameworkCore.Relational",
    "Microsoft.EntityFrameworkCore.SqlServer",
    "Microsoft.AspNetCore.Identity.EntityFrameworkCore",
    "Microsoft.AspNetCore.Identity.UI",
    "Microsoft.CodeAnalysis.Razor",
    "Microsoft.CodeAnalysis.CSharp",
    "Newtonsoft.Json",
    "System.Text.Encodings.Web",
    "System.ComponentModel.Annotations",
]
DEPENDS_ON = {
    _MX + "Options": [_MX + "DependencyInjection.Abstractions", _MX + "Primitives"],
    _MX + "Logging.Abstractions": [_MX + "DependencyInjection.Abstractions"],
    _MX + "Logging": [
        _MX + "DependencyInjection",
        _MX + "Logging.Abstractions",
        _MX + "Options",
    ],
    _MX + "DependencyInjection": [_MX + "DependencyInjection.Abstractions"],
    _MX + "Configuration": [_MX + "Configuration.Abstractions", _MX + "Primitives"],
    _MX + "Configuration.Abstractions": [_MX + "Primitives"],
    _MX + "Configuration.Binder": [_MX + "Configuration.Abstractions"],
    _MX + "Configuration.Json": [
        _MX + "Configuration",
        _MX + "Configuration.FileExtensions",
        _MX + "FileProviders.Abstractions",
    ],
    _MX + "Options.ConfigurationExtensions": [
        _MX + "Configuration.Abstractions",
        _MX + "Configuration.Binder",
        _MX + "DependencyInjection.Abstractions",
        _MX + "Options",
        _MX + "Primitives",
    ],
    _MX + "Hosting.Abstractions": [
        _MX + "Configuration.Abstractions",
        _MX + "DependencyInjection.Abstractions",
        _MX + "Diagnostics.Abstractions",
        _MX + "FileProviders.Abstractions",
        _MX + "Logging.Abstractions",
    ],
    _MX + "Hosting": [
        _MX + "Configuration",
        _MX + "Configuration.Binder",
        _MX + "Configuration.CommandLine",
        _MX + "Configuration.EnvironmentVariables",
        _MX + "Configuration.Json",
        _MX + "Configuration.UserSecrets",
        _MX + "DependencyInjection",
        _MX + "Hosting.Abstractions",
        _MX + "Logging",
        _MX + "Logging.Configuration",
        _MX + "Logging.Console",
        _MX + "Logging.Debug",
        _MX + "Options",
    ],
    _MX + "Http": [
        _MX + "Configuration.Abstractions",
        _MX + "DependencyInjection.Abstractions",
        _MX + "Logging",
        _MX + "Logging.Abstractions",
        _MX + "Options",
    ],
    _MX + "Caching.Memory": [
        _MX + "Caching.Abstractions",
        _MX + "DependencyInjection.Abstractions",
        _MX + "Logging.Abstractions",
        _MX + "Options",
    ],
    _MX + "Caching.StackExchangeRedis": [_MX + "Caching.Abstractions", _MX + "Options"],
    _MX + "Diagnostics.HealthChecks": [
        _MX + "Diagnostics.HealthChecks.Abstractions",
        _MX + "Hosting.Abstractions",
        _MX + "Logging.Abstractions",
        _MX + "Options",
    ],
    "Microsoft.EntityFrameworkCore": [
        "Microsoft.EntityFrameworkCore.Abstractions",
        # every EF Core from 2.0 to 5.0 lists it for netstandard (the data annotations)
        "System.ComponentModel.Annotations",
        _MX + "Caching.Memory",
        _MX + "Logging",
    ],
    "Microsoft.EntityFrameworkCore.Relational": [
        "Microsoft.EntityFrameworkCore",
        _MX + "Configuration.Abstractions",
    ],
    "Microsoft.EntityFrameworkCore.SqlServer": [
        "Microsoft.EntityFrameworkCore.Relational",
        "Microsoft.Data.SqlClient",
    ],
    "Microsoft.EntityFrameworkCore.Sqlite": [
        "Microsoft.EntityFrameworkCore.Sqlite.Core",
        "Microsoft.EntityFrameworkCore.Relational",
    ],
    "Npgsql.EntityFrameworkCore.PostgreSQL": [
        "Npgsql",
        "Microsoft.EntityFrameworkCore.Relational",
    ],
    "Microsoft.AspNetCore.Identity.EntityFrameworkCore": [
        "Microsoft.EntityFrameworkCore.Relational",
        _MX + "Identity.Stores",
    ],
    _MX + "Identity.Stores": [_MX + "Identity.Core", _MX + "Logging"],
    _MX + "Identity.Core": [_MX + "Logging", _MX + "Options"],
    "Swashbuckle.AspNetCore": [
        "Swashbuckle.AspNetCore.Swagger",
        "Swashbuckle.AspNetCore.SwaggerGen",
        "Swashbuckle.AspNetCore.SwaggerUI",
    ],
    "Swashbuckle.AspNetCore.Swagger": ["Microsoft.OpenApi"],
    "Swashbuckle.AspNetCore.SwaggerGen": ["Swashbuckle.AspNetCore.Swagger"],
    "Microsoft.AspNetCore.Authentication.JwtBearer": [
        "Microsoft.IdentityModel.Protocols.OpenIdConnect"
    ],
    "Microsoft.IdentityModel.Protocols.OpenIdConnect": [
        "Microsoft.IdentityModel.Protocols",
        "System.IdentityModel.Tokens.Jwt",
    ],
    "Microsoft.IdentityModel.Protocols": ["Microsoft.IdentityModel.Tokens"],
    "System.IdentityModel.Tokens.Jwt": [
        "Microsoft.IdentityModel.JsonWebTokens",
        "Microsoft.IdentityModel.Tokens",
    ],
    "Microsoft.IdentityModel.JsonWebTokens": ["Microsoft.IdentityModel.Tokens"],
    "MediatR": ["MediatR.Contracts", _MX + "DependencyInjection.Abstractions"],
    "AutoMapper": [_MX + "Options"],
    "FluentValidation.DependencyInjectionExtensions": [
        "FluentValidation",
        _MX + "DependencyInjection.Abstractions",
    ],
    "Serilog.Extensions.Hosting": [
        _MX + "DependencyInjection.Abstractions",
        _MX + "Hosting.Abstractions",
        _MX + "Logging.Abstractions",
        "Serilog",
        "Serilog.Extensions.Logging",
    ],
    "Serilog.Extensions.Logging": [_MX + "Logging", "Serilog"],
    "Serilog.AspNetCore": [
        _MX + "Logging",
        "Serilog",
        "Serilog.Extensions.Hosting",
        "Serilog.Formatting.Compact",
        "Serilog.Settings.Configuration",
        "Serilog.Sinks.Console",
        "Serilog.Sinks.Debug",
        "Serilog.Sinks.File",
    ],
    "Serilog.Settings.Configuration": [_MX + "Configuration.Binder", "Serilog"],
    "MongoDB.Driver": ["MongoDB.Bson", "MongoDB.Driver.Core"],
    "Quartz.Extensions.Hosting": [
        "Quartz.Extensions.DependencyInjection",
        _MX + "Hosting.Abstractions",
    ],
    "Quartz.Extensions.DependencyInjection": [
        "Quartz",
        _MX + "DependencyInjection.Abstractions",
        _MX + "Options",
    ],
    "Microsoft.AspNetCore.Mvc.Testing": [
        "Microsoft.AspNetCore.TestHost",
        _MX + "Hosting",
    ],
    "FluentValidation.AspNetCore": [
        "FluentValidation",
        "FluentValidation.DependencyInjectionExtensions",
    ],
    # the AspNetCore.HealthChecks.* checks build on the health-checks service
    "AspNetCore.HealthChecks.NpgSql": [_MX + "Diagnostics.HealthChecks", "Npgsql"],
    "AspNetCore.HealthChecks.SqlServer": [_MX + "Diagnostics.HealthChecks"],
    "AspNetCore.HealthChecks.Redis": [_MX + "Diagnostics.HealthChecks"],
    "AspNetCore.HealthChecks.Rabbitmq": [_MX + "Diagnostics.HealthChecks", "RabbitMQ.Client"],
    "AspNetCore.HealthChecks.MongoDb": [_MX + "Diagnostics.HealthChecks", "MongoDB.Driver"],
    "Asp.Versioning.Http": ["Asp.Versioning.Abstractions"],
    "Asp.Versioning.Mvc": ["Asp.Versioning.Http"],
    "Asp.Versioning.Mvc.ApiExplorer": ["Asp.Versioning.Mvc"],
    "Testcontainers.MsSql": ["Testcontainers"],
    "Testcontainers.PostgreSql": ["Testcontainers"],
    # each package's gallery page, "Dependencies" (a package multi-targeting old and new
    # frameworks lists here what its old-framework groups add, such as OpenFeature's
    # System.Collections.Immutable: the project compiles either way)
    "Microsoft.Data.SqlClient": [
        "Azure.Identity",
        "Microsoft.Identity.Client",
        "Microsoft.IdentityModel.JsonWebTokens",
        "Microsoft.IdentityModel.Protocols.OpenIdConnect",
        "Microsoft.SqlServer.Server",
        "System.Configuration.ConfigurationManager",
    ],
    "Pomelo.EntityFrameworkCore.MySql": [
        "Microsoft.EntityFrameworkCore.Relational",
        "MySqlConnector",
    ],
    "Volo.Abp.Autofac": [
        "Autofac",
        "Autofac.Extensions.DependencyInjection",
        "Autofac.Extras.DynamicProxy",
        "Volo.Abp.Castle.Core",
    ],
    "Microsoft.AspNet.WebApi": ["Microsoft.AspNet.WebApi.WebHost"],
    "Microsoft.AspNet.WebApi.WebHost": ["Microsoft.AspNet.WebApi.Core"],
    "Microsoft.AspNet.WebApi.Core": ["Microsoft.AspNet.WebApi.Client"],
    "Microsoft.AspNet.WebApi.Client": ["Newtonsoft.Json", "Newtonsoft.Json.Bson"],
    "Microsoft.AspNetCore.Components.WebAssembly": [
        "Microsoft.AspNetCore.Components.Web",
        "Microsoft.JSInterop.WebAssembly",
        _MX + "Configuration.Json",
        _MX + "Logging",
    ],
    "Microsoft.AspNetCore.Components.Web": [
        "Microsoft.AspNetCore.Components",
        "Microsoft.AspNetCore.Components.Forms",
        _MX + "DependencyInjection",
        _MX + "Primitives",
        "Microsoft.JSInterop",
    ],
    "Microsoft.JSInterop.WebAssembly": ["Microsoft.JSInterop"],
    "FirebaseAdmin": ["Google.Api.Gax.Rest", "Google.Apis.Auth", "System.Collections.Immutable"],
    "Microsoft.NET.Test.Sdk": ["Microsoft.CodeCoverage", "Microsoft.TestPlatform.TestHost"],
    "Microsoft.TestPlatform.TestHost": ["Microsoft.TestPlatform.ObjectModel", "Newtonsoft.Json"],
    "Microsoft.FeatureManagement": [
        _MX + "Caching.Memory",
        _MX + "Configuration.Binder",
        _MX + "Logging",
    ],
    "OpenFeature": [
        "Microsoft.Bcl.AsyncInterfaces",
        _MX + "Logging.Abstractions",
        "System.Collections.Immutable",
        "System.Threading.Channels",
    ],
    "OpenFeature.Hosting": [
        "OpenFeature",
        _MX + "DependencyInjection.Abstractions",
        _MX + "Hosting.Abstractions",
        _MX + "Options",
    ],
    "JsonLogic": ["Json.More.Net", "JsonPointer.Net"],
    "Json.More.Net": ["System.Text.Json"],
    "JsonPointer.Net": ["Json.More.Net"],
    "Reqnroll.xUnit": ["Reqnroll", "Xunit.SkippableFact", "xunit.core"],
    "Reqnroll.Microsoft.Extensions.DependencyInjection": ["Reqnroll", _MX + "DependencyInjection"],
    _MX + "Diagnostics.Testing": [_MX + "Logging"],
    # The ASP.NET Core 2.x metapackages (a PackageReference only before 3.0, where the
    # shared framework replaced them): their nuspec lists EF Core with its SQL Server
    # provider, ASP.NET Core Identity with its UI and EF stores, Razor (and through it the
    # Roslyn C# compiler) and Json.NET ("Microsoft.AspNetCore.App metapackage for
    # ASP.NET Core 2.1", Microsoft Learn); .All adds the SQLite provider.
    "Microsoft.AspNetCore.App": _ASPNETCORE2_META,
    "Microsoft.AspNetCore.All": [*_ASPNETCORE2_META, "Microsoft.EntityFrameworkCore.Sqlite"],
    "Microsoft.EntityFrameworkCore.Sqlite.Core": [
        "Microsoft.Data.Sqlite.Core",
        "Microsoft.EntityFrameworkCore.Relational",
    ],
    "Microsoft.Data.Sqlite": ["Microsoft.Data.Sqlite.Core"],
    "Hangfire.NetCore": ["Hangfire.Core"],
    "Hangfire.AspNetCore": ["Hangfire.NetCore"],
    "Hangfire.Mongo": ["Hangfire.Core", "MongoDB.Driver"],
    "Hangfire.SqlServer": ["Hangfire.Core"],
    "Avalonia.ReactiveUI": ["Avalonia", "ReactiveUI"],
    "ReactiveUI": ["System.Reactive", "DynamicData"],
    "ReactiveUI.Avalonia": ["Avalonia", "ReactiveUI"],
    "AWSSDK.Extensions.NETCore.Setup": [
        "AWSSDK.Core",
        _MX + "Configuration.Abstractions",
        _MX + "DependencyInjection.Abstractions",
        _MX + "Logging.Abstractions",
    ],
    "Microsoft.Azure.Functions.Worker": ["Microsoft.Azure.Functions.Worker.Core"],
    "Microsoft.Azure.Functions.Worker.Core": ["Azure.Core", _MX + "Hosting"],
    "Microsoft.Identity.Web": [
        "Microsoft.Identity.Web.Certificate",
        "Microsoft.Identity.Web.TokenCache",
        "Microsoft.AspNetCore.Authentication.JwtBearer",
        "Microsoft.AspNetCore.Authentication.OpenIdConnect",
    ],
    "Microsoft.Identity.Web.Certificate": ["Azure.Identity"],
    "Google.Apis": ["Google.Apis.Core", "Newtonsoft.Json"],
    "Google.Apis.Core": ["Newtonsoft.Json"],
    "NSwag.AspNetCore": ["NSwag.Generation.AspNetCore", "NJsonSchema", "Newtonsoft.Json"],
    "NJsonSchema": ["Newtonsoft.Json"],
    "AutoFixture.AutoMoq": ["AutoFixture", "Moq"],
    "Moq": ["Castle.Core"],
    "MySql.EntityFrameworkCore": ["MySql.Data", "Microsoft.EntityFrameworkCore.Relational"],
}

# Entry points a package's own documentation shows that do not choose the package by
# themselves, because another package or another major version has the same name: check
# mode counts a call of one as a use of the package where a project declares it, inference
# never picks a package by them. Train counts (2026-11, all14 csharp-train): AddMediatR is
# called in 8 repositories, 3 declare the extension package (MediatR 12 ships its own
# AddMediatR); [ApiVersion] in 2, one with Asp.Versioning's; ToListAsync in 22, 3 with
# System.Linq.Async (EF Core's ToListAsync is the usual one).
DECLARED_ENTRY_POINTS = {
    # its README: `services.AddMediatR(typeof(MyHandler))`, in namespace MediatR (<= 11.x);
    # MediatR 12's release notes: AddMediatR moved into MediatR, this package is deprecated,
    # so beside MediatR 12 or later the call is MediatR's own ("not_with": major version)
    "MediatR.Extensions.Microsoft.DependencyInjection": {
        "entry_points": ["AddMediatR"],
        "not_with": {"MediatR": 12},
    },
    # aspnet-api-versioning wiki (ASP.NET Core, 5.x): ApiVersionAttribute and its kin live
    # in Microsoft.AspNetCore.Mvc, AddApiVersioning in Microsoft.Extensions.DependencyInjection
    "Microsoft.AspNetCore.Mvc.Versioning": {
        "entry_points": ["ApiVersion", "MapToApiVersion", "ApiVersionNeutral", "AddApiVersioning"]
    },
    # dotnet/reactive README (Ix.Async): LINQ over IAsyncEnumerable in namespace System.Linq
    "System.Linq.Async": {"entry_points": ["ToListAsync", "ToArrayAsync", "ToAsyncEnumerable"]},
}


# A family's contract packages (`X.Abstractions`, `X.Core`) that another chosen package's
# dependency list (DEPENDS_ON, BROUGHT_BY: the gallery pages) holds are not listed beside
# it either: the project names the implementation and compiles against its contracts
# through it. Counted on all14 csharp-train (before: snap15): 28 predicted contract
# packages beside a carrier, 5 of them also written by the maintainers.
CONTRACT_SUFFIXES = (".Abstractions", ".Core")


# Packages the maintainers rarely list beside any package that brings them (directly or
# through its own dependencies: DEPENDS_ON, BROUGHT_BY), though the code names their
# namespaces. Counted on the C# corpus train split (csharp17, before: 679570d), per
# package: of the gold project files holding a carrier, how many list it too; of the
# project files where depinfer wrote it beside a carrier, how many list it.
HABIT_IMPLIED = {
    # Logging, Hosting, Http, EF Core, …: 0 of 82; written 3 times, none listed (train
    # mean name F1 +0.03, 3 repositories better, none worse). Weighed the same way and left
    # out: Microsoft.IdentityModel.Tokens (2 of 33; written 8 times, 2 listed, but train
    # F1 -0.04) and Microsoft.Extensions.Configuration (4 of 25; train F1 +0.01, 3 better,
    # 2 worse)
    _MX + "Options",
}


def _carriers_of(dep: str, pairs: list[tuple[str, str]]) -> set[str]:
    """Every package whose dependency closure holds `dep`: what reaches it, walking the
    (package, dependency) pairs backwards."""
    dependents: dict[str, set[str]] = {}
    for a, b in pairs:
        dependents.setdefault(b, set()).add(a)
    found: set[str] = set()
    todo = [dep]
    while todo:
        for a in dependents.get(todo.pop(), ()):
            if a not in found:
                found.add(a)
                todo.append(a)
    return found


def implied_by() -> dict[str, list[str]]:
    """IMPLIED_BY with every contract package a listed package depends on, and every
    package of HABIT_IMPLIED with each package that brings it."""
    out = {dep: list(carriers) for dep, carriers in IMPLIED_BY.items()}
    pairs = [(a, b) for a, bs in DEPENDS_ON.items() for b in bs]
    pairs += [(a, b) for b, carriers in BROUGHT_BY.items() for a in carriers]
    for carrier, dep in sorted(pairs):
        if dep.endswith(CONTRACT_SUFFIXES) and carrier not in out.setdefault(dep, []):
            out[dep].append(carrier)
    for dep in sorted(HABIT_IMPLIED):
        for carrier in sorted(_carriers_of(dep, pairs)):
            if carrier not in out.setdefault(dep, []):
                out[dep].append(carrier)
    return out


# Types that older targets (netstandard2.0, .NET Framework) only get from a package; the
# package is needed when a project targeting one of them uses the type (API browser).
POLYFILL_TYPES = {
    "System.Memory": [
        "Span",
        "ReadOnlySpan",
        "Memory",
        "ReadOnlyMemory",
        "MemoryMarshal",
        "MemoryExtensions",
        "AsSpan",
        "AsMemory",
    ],
    "System.Threading.Tasks.Extensions": ["ValueTask"],
    "Microsoft.Bcl.AsyncInterfaces": [
        "IAsyncEnumerable",
        "IAsyncDisposable",
        "IAsyncEnumerator",
        "EnumeratorCancellation",
        "AsyncIteratorMethodBuilder",
    ],
    "System.Buffers": ["ArrayPool"],
    "Microsoft.Bcl.HashCode": ["HashCode"],
}


# What source-only polyfill packages (PolySharp's README lists its generated types) give
# older targets: the syntax that compiles only with a support type (records and `init`
# need IsExternalInit, `required` RequiredMemberAttribute, `^1` and `a..b` Index/Range;
# C# language reference), each with the type a project may declare itself instead, and
# the attributes of the nullable analysis and compiler services newer frameworks define.
POLYFILL_SYNTAX = {
    "features": {
        "record": "IsExternalInit",
        "init": "IsExternalInit",
        "required": "RequiredMemberAttribute",
        "index": "Index",
        "range": "Range",
    },
    "attributes": [
        "AllowNull",
        "CallerArgumentExpression",
        "DisallowNull",
        "DoesNotReturn",
        "DoesNotReturnIf",
        "DynamicallyAccessedMembers",
        "MaybeNull",
        "MaybeNullWhen",
        "MemberNotNull",
        "MemberNotNullWhen",
        "ModuleInitializer",
        "NotNull",
        "NotNullIfNotNull",
        "NotNullWhen",
        "RequiresUnreferencedCode",
        "SetsRequiredMembers",
        "SkipLocalsInit",
        "StackTraceHidden",
        "StringSyntax",
        "UnconditionalSuppressMessage",
        "UnscopedRef",
    ],
}


# Architecture-test libraries (NetArchTest's and ArchUnitNET's READMEs) load the compiled
# assemblies of the layers they check, so such a test project references each layer
# itself rather than through another: the namespaces that mark their use.
ARCHITECTURE_TESTS = ["NetArchTest.Rules", "ArchUnitNET"]


def parse_packages(table: str) -> dict[str, dict]:
    packages: dict[str, dict] = {}
    for raw in table.strip().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cols = [c.strip() for c in line.split("|")]
        if len(cols) != 5:
            raise SystemExit(f"bad row: {line}")
        pid, rank, kind, namespaces, latest = cols
        entries = []
        for item in filter(None, (n.strip() for n in namespaces.split(";"))):
            markers: list[str] = []
            if "[" in item:
                item, _, rest = item.partition("[")
                markers = [m.strip() for m in rest.rstrip("]").split(",") if m.strip()]
            ns = pid if item == "=" else item
            entry: dict = {"namespace": ns}
            if markers:
                entry["markers"] = markers
            entries.append(entry)
        if pid in packages:
            raise SystemExit(f"duplicate package row: {pid}")
        packages[pid] = {
            "rank": int(rank),
            "kind": kind,
            "namespaces": entries,
            "latest": latest,
        }
    return packages


def main() -> None:
    packages = parse_packages(PACKAGES)
    index = {
        "about": "namespace -> NuGet package index; rebuilt by scripts/build_nuget_index.py "
        "(sources named in its docstring)",
        "packages": packages,
        "runtime_families": RUNTIME_FAMILIES,
        "release_trains": RELEASE_TRAINS,
        "runtime_family_except": RUNTIME_FAMILY_EXCEPT,
    }
    inbox = {
        "about": "namespaces in the box per target framework and project SDK; rebuilt by "
        "scripts/build_nuget_index.py (sources named in its docstring)",
        "always": INBOX_ALWAYS,
        "since": INBOX_SINCE,
        "netstandard21": INBOX_NETSTANDARD21,
        "netfx_since": INBOX_NETFX_SINCE,
        "netstandard_since": INBOX_NETSTANDARD_SINCE,
        "aspnetcore_shared": ASPNETCORE_SHARED,
        "aspnetcore_shared_except": ASPNETCORE_SHARED_EXCEPT,
        "aspnetcore_framework_packages": ASPNETCORE_FRAMEWORK_PACKAGES,
        "implicit_usings": IMPLICIT_USINGS,
        "web_sdks": WEB_SDKS,
        "test_sdks": TEST_SDKS,
        "sdk_packages_since": SDK_PACKAGES_SINCE,
        "windowsdesktop_packages": WINDOWSDESKTOP_PACKAGES,
        "shared_inbox_namespaces": SHARED_INBOX_NAMESPACES,
    }
    conventions = {
        "about": "C# test-project and tooling conventions; rebuilt by "
        "scripts/build_nuget_index.py (sources named in its docstring)",
        "test_frameworks": TEST_FRAMEWORKS,
        "testing_platform": TESTING_PLATFORM,
        "architecture_tests": ARCHITECTURE_TESTS,
        "test_sdk": TEST_SDK,
        "coverage_tools": COVERAGE,
        "test_loggers": TEST_LOGGERS,
        "file_signals": FILE_SIGNALS,
        "protobuf_packages": PROTOBUF,
        "mvc_attributes": MVC_ATTRIBUTES,
        "property_signals": PROPERTY_SIGNALS,
        "placement": PLACEMENT,
        "template_packages": TEMPLATE_PACKAGES,
        "placement_prefix": PLACEMENT_PREFIX,
        "polyfill_types": POLYFILL_TYPES,
        "polyfill_syntax": POLYFILL_SYNTAX,
        "polyfill_features": POLYFILL_FEATURES,
        "implied_by": implied_by(),
        "brought_by": BROUGHT_BY,
        "depends_on": DEPENDS_ON,
        "declared_entry_points": DECLARED_ENTRY_POINTS,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    RULES_OUT.mkdir(parents=True, exist_ok=True)
    for path, payload in (
        (OUT / "nuget_index.json", index),
        (OUT / "nuget_inbox.json", inbox),
        (RULES_OUT / "conventions.json", conventions),
    ):
        path.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n")
    print(f"{len(packages)} packages written to {OUT / 'nuget_index.json'}")


if __name__ == "__main__":
    main()
